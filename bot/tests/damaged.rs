//! The start-up check through the binary: `stonemate console` on a database whose records
//! were damaged must stop before it reads a line, name what is damaged and how to restore
//! it, and exit non-zero; damage sled itself finds (a log cut short, a page that does not
//! decompress) likewise, in words, without sled's debug text or panic.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

const SETUP: &str = "@alice /challenge opponent:@bob game:go color:white days:0 options:\"board=9x9\"\n\
                     @bob /accept\n@bob /move notation:e5\n@alice /move notation:d4\n";

fn console(data: &Path, input: &str) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_stonemate"));
    command.arg("console").arg("--data").arg(data).arg("--json");
    command.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut child = command.spawn().unwrap();
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    child.wait_with_output().unwrap()
}

/// A database with game #1 (two turns played), its record then replaced by `damage` of it.
fn damaged(damage: impl FnOnce(&[u8]) -> Vec<u8>) -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    assert!(console(&data, SETUP).status.success());
    // Without sled's flusher thread, dropping `db` releases the directory's lock at once
    // (the flusher holds the database a moment longer, and the console would find it locked).
    let db = stonemate_bot::store::sled_config(&data).flush_every_ms(None).open().unwrap();
    let (key, value) = db.scan_prefix(b"g").next().unwrap().unwrap();
    db.insert(key, damage(&value)).unwrap();
    db.flush().unwrap();
    drop(db);
    tmp
}

/// The console refuses to start: nothing answered, the damage and the way back named.
fn assert_refused(tmp: &tempfile::TempDir, what: &str) {
    let output = console(&tmp.path().join("data"), "@alice /board game:1\n");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "{stderr}");
    assert!(output.stdout.is_empty(), "nothing is served: {}", String::from_utf8_lossy(&output.stdout));
    assert!(stderr.contains(&format!("the database is damaged: {what}")), "{stderr}");
    assert!(stderr.contains("restore it from an export") && stderr.contains("stonemate import --data"), "{stderr}");
}

/// The console refuses to start on damaged sled files, in words: nothing of sled's own
/// text (its debug output, its panic, the note on backtraces).
fn assert_sled_damage_refused(data: &Path) -> String {
    let output = console(data, "@alice /board game:1\n");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success() && output.stdout.is_empty(), "{stderr}");
    let shown = data.display();
    assert!(
        stderr.starts_with(&format!("stonemate console: the database is damaged: sled's files in {shown}")),
        "{stderr}"
    );
    assert!(stderr.contains(&format!("stonemate import --data {shown}")), "{stderr}");
    for sled_text in ["backtrace", "panicked", "Read corrupted", "open an issue"] {
        assert!(!stderr.contains(sled_text), "{sled_text}: {stderr}");
    }
    assert_eq!(stderr.lines().count(), 1, "one message: {stderr}");
    stderr.into_owned()
}

#[test]
fn a_log_cut_short_stops_the_start_with_the_restore_command() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    // Enough games for sled's log to span two segments, its snapshot pointing into both.
    let games: String = (1..=40)
        .map(|n| {
            format!("@u{n} /challenge opponent:@v{n} game:go color:white days:0 options:\"board=9x9\"\n@v{n} /accept\n")
        })
        .collect();
    assert!(console(&data, &games).status.success());
    let log = std::fs::OpenOptions::new().write(true).open(data.join("db")).unwrap();
    log.set_len(log.metadata().unwrap().len() / 3).unwrap();
    drop(log);
    let stderr = assert_sled_damage_refused(&data);
    assert!(stderr.contains("sled found them cut short or corrupted"), "{stderr}");
}

#[test]
fn a_page_that_does_not_decompress_stops_the_start_without_sled_s_panic() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    assert!(console(&data, SETUP).status.success());
    garble_a_compressed_page(&data);
    let stderr = assert_sled_damage_refused(&data);
    assert!(stderr.contains("sled stopped reading them (failed to decompress data"), "{stderr}");
}

/// The zstd frames' first bytes.
const ZSTD_MAGIC: [u8; 4] = [0x28, 0xb5, 0x2f, 0xfd];

/// A number as sled 0.34 writes it in its log (`serialization.rs`): its value, and how many
/// bytes it took.
fn varint(bytes: &[u8]) -> (u64, usize) {
    match bytes[0] {
        small @ 0..=240 => (u64::from(small), 1),
        first @ 241..=248 => (240 + 256 * (u64::from(first) - 241) + u64::from(bytes[1]), 2),
        249 => (2288 + 256 * u64::from(bytes[1]) + u64::from(bytes[2]), 3),
        other => {
            let size = usize::from(other) - 247;
            let mut aligned = [0; 8];
            aligned[..size].copy_from_slice(&bytes[1..=size]);
            (u64::from_le_bytes(aligned), size + 1)
        }
    }
}

/// Garbles the last compressed page of the log's first segment (64 KiB) and gives it a
/// checksum that holds, as a bad sector under a lucky checksum or a bug would: sled then
/// reads it at its next start and panics in `maybe_decompress`. A message is a header
/// (checksum, kind, body length, segment number, page, after a 20-byte segment header) and
/// a body (its length, then the zstd frame); the checksum covers the body, then the header
/// past the checksum (`calculate_message_crc32`).
fn garble_a_compressed_page(dir: &Path) {
    let mut log = std::fs::read(dir.join("db")).unwrap();
    let (mut at, mut garbled) = (20, None);
    while at + 8 < (64 * 1024).min(log.len()) && log[at + 4] != 0 {
        let (len, len_size) = varint(&log[at + 5..]);
        let (_, segment_size) = varint(&log[at + 5 + len_size..]);
        let (_, page_size) = varint(&log[at + 5 + len_size + segment_size..]);
        let header = 5 + len_size + segment_size + page_size;
        let body = at + header;
        let (_, frame_at) = varint(&log[body..]);
        // Inline pages and page updates (kinds 8 and 10).
        if [8, 10].contains(&log[at + 4]) && log[body + frame_at..].starts_with(&ZSTD_MAGIC) {
            garbled = Some((at, header, body, frame_at, len as usize));
        }
        at = body + len as usize;
    }
    let (at, header, body, frame_at, len) = garbled.expect("a compressed page in the first segment");
    // A frame header with its reserved bit set: zstd refuses the frame.
    log[body + frame_at + 4] = 0xff;
    let mut hasher = crc32fast::Hasher::new();
    hasher.update(&log[body..body + len]);
    hasher.update(&log[at + 4..at + header]);
    let crc = hasher.finalize() ^ 0xffff_ffff;
    log[at..at + 4].copy_from_slice(&crc.to_le_bytes());
    std::fs::write(dir.join("db"), log).unwrap();
}

#[test]
fn a_record_whose_turns_do_not_replay_stops_the_start() {
    let tmp = damaged(|value| String::from_utf8_lossy(value).replace("R@d4", "R@e5").into_bytes());
    assert_refused(&tmp, "game #1: its turns do not replay");
}

#[test]
fn a_record_that_is_not_json_stops_the_start() {
    let tmp = damaged(|value| value[..value.len() / 2].to_vec());
    assert_refused(&tmp, "key 67 00 00 00 01:");
}

#[test]
fn an_intact_database_starts() {
    let tmp = damaged(<[u8]>::to_vec);
    let output = console(&tmp.path().join("data"), "@alice /board game:1\n");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
}

#[test]
fn a_second_process_on_the_directory_is_told_it_is_in_use() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    let mut first = Command::new(env!("CARGO_BIN_EXE_stonemate"));
    first.arg("console").arg("--data").arg(&data).arg("--json");
    let mut first = first.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::null()).spawn().unwrap();
    let mut stdin = first.stdin.take().unwrap();
    // Once it answers, it holds the directory.
    stdin.write_all(b"@alice /games\n").unwrap();
    let mut line = String::new();
    std::io::BufRead::read_line(&mut std::io::BufReader::new(first.stdout.take().unwrap()), &mut line).unwrap();
    let second = console(&data, "@bob /games\n");
    drop(stdin);
    first.wait().unwrap();
    let stderr = String::from_utf8_lossy(&second.stderr);
    assert_eq!(second.status.code(), Some(2), "{stderr}");
    assert!(second.stdout.is_empty());
    assert!(stderr.contains(&format!("{} is in use by another process", data.display())), "{stderr}");
    assert!(!stderr.contains("acquire lock"), "no library text: {stderr}");
}

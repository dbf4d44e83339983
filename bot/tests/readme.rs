//! The README's commands, checked against the real thing so that they cannot drift: every
//! `cargo run` line runs the one `stonemate` binary with arguments its command line
//! accepts, every `stonemate SUBCOMMAND` synopsis names flags that exist, every `-p`,
//! `--test` and `--bench` names a real package and target, and the test command the README
//! gives is the one CI runs.

use std::path::{Path, PathBuf};
use std::process::Command;

use clap::{CommandFactory, Parser};
use serde_json::Value;
use stonemate_bot::cli::Cli;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("the workspace root").to_owned()
}

fn readme() -> String {
    std::fs::read_to_string(root().join("README.md")).expect("README.md")
}

/// The lines of the README's code blocks (indented by four spaces, or fenced), with
/// further-indented lines joined to the line they continue, and without `# comments`.
fn code_lines(text: &str) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        let Some(code) = (if fenced { Some(line) } else { line.strip_prefix("    ") }) else { continue };
        match lines.last_mut() {
            Some(last) if code.starts_with(char::is_whitespace) && !code.trim().is_empty() => {
                last.push(' ');
                last.push_str(code.trim());
            }
            _ => lines.push(code.to_owned()),
        }
    }
    lines
        .iter()
        .map(|line| line.split(" # ").next().unwrap_or("").trim().to_owned())
        .filter(|line| !line.is_empty())
        .collect()
}

/// The words of a shell command line, with leading `NAME=value` assignments left out.
fn words(line: &str) -> Vec<String> {
    let words = shlex::split(line).unwrap_or_else(|| panic!("cannot split the README line `{line}`"));
    let is_assignment = |word: &String| {
        word.split_once('=').is_some_and(|(name, _)| name.chars().all(|c| c.is_ascii_uppercase() || c == '_'))
    };
    words.into_iter().skip_while(is_assignment).collect()
}

/// The README's command lines that start with `program`.
fn commands(program: &str) -> Vec<Vec<String>> {
    code_lines(&readme())
        .iter()
        .map(|line| words(line))
        .filter(|words| words.first().is_some_and(|w| w == program))
        .collect()
}

/// `cargo metadata` of the workspace (its own packages only).
fn metadata() -> Value {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let output = Command::new(cargo)
        .args(["metadata", "--no-deps", "--format-version", "1", "--offline"])
        .current_dir(root())
        .output()
        .expect("cargo metadata runs");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    serde_json::from_slice(&output.stdout).expect("cargo metadata prints JSON")
}

fn packages(metadata: &Value) -> &[Value] {
    metadata["packages"].as_array().map_or(&[], Vec::as_slice)
}

/// The names of a package's targets of one kind (`bin`, `test`, `bench`).
fn targets(package: &Value, kind: &str) -> Vec<String> {
    let targets = package["targets"].as_array().map_or(&[][..], Vec::as_slice);
    targets
        .iter()
        .filter(|target| target["kind"].as_array().is_some_and(|kinds| kinds.iter().any(|k| k == kind)))
        .filter_map(|target| target["name"].as_str().map(str::to_owned))
        .collect()
}

/// What `cargo run` without `--bin` or `-p` may run: the binaries of the default members.
fn default_binaries(metadata: &Value) -> Vec<String> {
    let defaults = metadata["workspace_default_members"].as_array().cloned().unwrap_or_default();
    packages(metadata)
        .iter()
        .filter(|package| defaults.contains(&package["id"]))
        .flat_map(|package| targets(package, "bin"))
        .collect()
}

#[test]
fn cargo_run_in_the_workspace_runs_the_stonemate_binary() {
    assert_eq!(default_binaries(&metadata()), ["stonemate"]);
}

#[test]
fn every_cargo_run_line_of_the_readme_is_accepted_by_the_command_line() {
    let lines = commands("cargo").into_iter().filter(|words| words[1] == "run").collect::<Vec<_>>();
    assert!(lines.len() >= 5, "expected the README's cargo run lines, found {lines:?}");
    let metadata = metadata();
    for words in lines {
        if words.iter().any(|w| w == "--example") {
            check_example(&metadata, &words);
            continue;
        }
        let split = words.iter().position(|w| w == "--").unwrap_or_else(|| panic!("{words:?}: no `--`"));
        // Only flags that keep cargo's choice of binary: the one default binary checked above.
        assert!(words[2..split].iter().all(|w| w == "--release" || w == "--locked"), "{words:?}");
        let args = std::iter::once("stonemate").chain(words[split + 1..].iter().map(String::as_str));
        if let Err(error) = Cli::try_parse_from(args) {
            panic!("the README's `{}` is refused:\n{error}", words.join(" "));
        }
        for file in words[split + 1..].iter().filter(|w| w.starts_with("examples/")) {
            assert!(root().join(file).is_file(), "{words:?}: {file} does not exist");
        }
    }
}

/// A `cargo run -p PACKAGE --example NAME` line names a package that has that example.
fn check_example(metadata: &Value, words: &[String]) {
    let after = |flag: &str| words.windows(2).find(|pair| pair[0] == flag).map(|pair| pair[1].clone());
    let name = after("-p").or_else(|| after("--package")).unwrap_or_else(|| panic!("{words:?}: --example needs -p"));
    let example = after("--example").unwrap_or_else(|| panic!("{words:?}: --example names nothing"));
    let package = packages(metadata).iter().find(|p| p["name"] == name.as_str());
    let package = package.unwrap_or_else(|| panic!("{words:?}: no package {name}"));
    assert!(targets(package, "example").contains(&example), "{words:?}: {name} has no example {example}");
}

#[test]
fn every_stonemate_synopsis_names_a_subcommand_and_flags_that_exist() {
    let synopses = commands("stonemate");
    assert!(synopses.len() >= 2, "expected the README's synopses, found {synopses:?}");
    let cli = Cli::command();
    for words in synopses {
        let name = &words[1];
        let sub = cli.find_subcommand(name).unwrap_or_else(|| panic!("{words:?}: no subcommand {name}"));
        let longs: Vec<&str> = sub.get_arguments().filter_map(|arg| arg.get_long()).collect();
        for word in &words[2..] {
            let Some(flag) = word.trim_start_matches('[').strip_prefix("--") else { continue };
            let flag = flag.split(['=', ']', ' ']).next().unwrap_or("");
            assert!(longs.contains(&flag), "{words:?}: `stonemate {name}` has no --{flag} (it has {longs:?})");
        }
    }
}

#[test]
fn every_package_test_and_bench_the_readme_names_exists() {
    let metadata = metadata();
    let lines = commands("cargo").into_iter().filter(|words| words[1] != "run").collect::<Vec<_>>();
    for words in lines {
        let mut package = None;
        for pair in words.windows(2) {
            match pair[0].as_str() {
                "-p" | "--package" => {
                    let found = packages(&metadata).iter().find(|p| p["name"] == pair[1].as_str());
                    package = Some(found.unwrap_or_else(|| panic!("{words:?}: no package {}", pair[1])));
                }
                kind @ ("--test" | "--bench") => {
                    let package = package.unwrap_or_else(|| panic!("{words:?}: {kind} needs -p first"));
                    let names = targets(package, &kind[2..]);
                    assert!(names.contains(&pair[1]), "{words:?}: {} has no {kind} {}", package["name"], pair[1]);
                }
                _ => {}
            }
        }
    }
    for words in commands("python3") {
        assert!(root().join(&words[1]).is_file(), "{words:?}: {} does not exist", words[1]);
    }
}

/// The first command of the section "Run the tests".
fn readme_test_command() -> String {
    let text = readme();
    let section = text.split("\n## Run the tests").nth(1).expect("a section `## Run the tests`");
    code_lines(section).into_iter().next().expect("a command under `## Run the tests`")
}

#[test]
fn the_readme_test_command_is_the_script_ci_runs() {
    let command = readme_test_command();
    assert_eq!(command, "scripts/test");
    let script = root().join(&command);
    let mode = std::fs::metadata(&script).expect("scripts/test exists");
    assert!(
        std::os::unix::fs::PermissionsExt::mode(&mode.permissions()) & 0o111 != 0,
        "scripts/test is not executable"
    );
    let ci = std::fs::read_to_string(root().join(".ci/run")).expect(".ci/run");
    assert!(ci.lines().any(|line| line.trim() == command), ".ci/run does not run `{command}`:\n{ci}");
    let script = std::fs::read_to_string(script).expect("read scripts/test");
    assert!(script.contains("cargo test --workspace"), "scripts/test must run the whole suite");
}

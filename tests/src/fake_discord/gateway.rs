//! The fake gateway: a websocket that says HELLO, waits for IDENTIFY, answers READY,
//! acknowledges heartbeats, and forwards the dispatches the tests queue.

use std::sync::Arc;

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc;
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::Message as Frame;

use super::payloads;
use super::shared::Shared;

/// Accepts gateway connections until the fake is dropped.
pub(super) async fn serve(listener: TcpListener, shared: Arc<Shared>) {
    while let Ok((stream, _)) = listener.accept().await {
        // Without it the first small frame waits ~40 ms for Nagle's algorithm.
        let _ = stream.set_nodelay(true);
        tokio::spawn(session(stream, shared.clone()));
    }
}

async fn session(stream: TcpStream, shared: Arc<Shared>) {
    let Ok(mut socket) = tokio_tungstenite::accept_async(stream).await else { return };
    let hello = json!({"op": 10, "d": {"heartbeat_interval": 41250}, "s": null, "t": null});
    if send(&mut socket, &hello).await.is_err() {
        return;
    }
    let Some(shard) = wait_for_identify(&mut socket).await else { return };
    shared.identified(shard);
    let mut sequence = 1;
    if send(&mut socket, &ready(&shared, sequence, shard)).await.is_err() {
        return;
    }
    let (sender, mut dispatches) = mpsc::unbounded_channel();
    shared.connect(sender);
    loop {
        tokio::select! {
            frame = socket.next() => match frame {
                Some(Ok(Frame::Text(text))) => {
                    let op = serde_json::from_str::<Value>(&text).ok().and_then(|v| v["op"].as_u64());
                    if op == Some(1) && send(&mut socket, &json!({"op": 11})).await.is_err() {
                        break;
                    }
                }
                Some(Ok(Frame::Close(_))) => {
                    // Answer the close as Discord does; the client waits for it.
                    let _ = socket.flush().await;
                    break;
                }
                None | Some(Err(_)) => break,
                Some(Ok(_)) => {}
            },
            dispatch = dispatches.recv() => {
                let Some((event, data)) = dispatch else { break };
                sequence += 1;
                let frame = json!({"op": 0, "t": event, "s": sequence, "d": data});
                if send(&mut socket, &frame).await.is_err() {
                    break;
                }
            }
        }
    }
    shared.disconnect();
}

/// Waits for IDENTIFY; returns its `[shard, total]` (`[0, 1]` when it names none).
async fn wait_for_identify(socket: &mut WebSocketStream<TcpStream>) -> Option<[u64; 2]> {
    while let Some(Ok(frame)) = socket.next().await {
        if let Frame::Text(text) = frame {
            let payload = serde_json::from_str::<Value>(&text).unwrap_or_default();
            if payload["op"].as_u64() == Some(2) {
                let shard = &payload["d"]["shard"];
                return Some([shard[0].as_u64().unwrap_or(0), shard[1].as_u64().unwrap_or(1)]);
            }
        }
    }
    None
}

fn ready(shared: &Shared, sequence: u64, shard: [u64; 2]) -> Value {
    json!({
        "op": 0,
        "t": "READY",
        "s": sequence,
        "d": {
            "v": 10,
            "user": payloads::user(shared.bot_id, "Stonemate", true),
            "guilds": [],
            "session_id": "fake-session",
            "resume_gateway_url": shared.gateway_url,
            "shard": shard,
            "application": {"id": shared.application_id.to_string(), "flags": 0},
        }
    })
}

async fn send(socket: &mut WebSocketStream<TcpStream>, value: &Value) -> Result<(), ()> {
    socket.send(Frame::Text(value.to_string())).await.map_err(|_| ())
}

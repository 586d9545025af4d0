//! `ready.txt`: the handshake the app publishes once it answers commands.
//!
//! ```text
//! winit-automation ready
//! protocol 3
//! pid 4242
//! os "linux"
//! app "demo"
//! crate_version "0.1.0"
//! started 2026-12-01T19:57:16.123Z
//! started_unix_ms 1796155036123
//! queue_capacity 256
//! max_command_bytes 65536
//! ```
//! Readers ignore keys they do not know, so later versions may add lines.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use winit_automation_protocol::{ErrorCode, ParseError, quote, tokenize};

/// The first line of `ready.txt`.
pub const READY_MAGIC: &str = "winit-automation ready";

/// The handshake's fields.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ready {
    /// The protocol version the app speaks.
    pub protocol: u32,
    /// The app's process id.
    pub pid: u32,
    /// The operating system the app runs on (`std::env::consts::OS`: `linux`, `macos`,
    /// `windows`), the one whose process table `pid` is in; empty when the app does not say.
    pub os: String,
    /// The app's name, as given to the builder.
    pub app: String,
    /// The version of this crate inside the app.
    pub crate_version: String,
    /// When the app started answering, in milliseconds since the Unix epoch.
    pub started_unix_ms: u64,
    /// How many command entries may wait in the directory before writers get "queue full".
    pub queue_capacity: usize,
    /// The size cap of one command file, in bytes.
    pub max_command_bytes: usize,
}

impl Ready {
    /// The file text.
    pub fn to_text(&self) -> String {
        format!(
            "{READY_MAGIC}\nprotocol {}\npid {}\nos {}\napp {}\ncrate_version {}\nstarted {}\nstarted_unix_ms {}\nqueue_capacity {}\nmax_command_bytes {}\n",
            self.protocol,
            self.pid,
            quote(&self.os),
            quote(&self.app),
            quote(&self.crate_version),
            rfc3339_utc(self.started_unix_ms),
            self.started_unix_ms,
            self.queue_capacity,
            self.max_command_bytes,
        )
    }

    /// Whether [`pid`](Ready::pid) is in this process's process table, so that its liveness can be
    /// asked of the system: the app runs on this operating system, or does not say. A Windows app
    /// seen from Linux (under Wine, or from WSL) has its pid in another table.
    pub fn pid_is_local(&self) -> bool {
        self.os.is_empty() || self.os == std::env::consts::OS
    }

    /// Only the protocol version, for a client that must refuse a mismatch even when the rest of the
    /// file is in a format it does not know.
    pub fn parse_protocol(text: &str) -> Option<u32> {
        text.lines()
            .find_map(|l| l.strip_prefix("protocol "))
            .and_then(|v| v.trim().parse().ok())
    }

    /// Parses the file text.
    pub fn parse(text: &str) -> Result<Ready, ParseError> {
        let bad = |what: String| {
            ParseError::new(
                ErrorCode::BadSyntax,
                format!("malformed ready.txt: {what}"),
                "ready.txt is written by the app; restart it if the file is damaged",
            )
        };
        let mut lines = text.lines();
        if lines.next() != Some(READY_MAGIC) {
            return Err(bad(format!("the first line is not {READY_MAGIC:?}")));
        }
        let mut ready = Ready {
            protocol: 0,
            pid: 0,
            os: String::new(),
            app: String::new(),
            crate_version: String::new(),
            started_unix_ms: 0,
            queue_capacity: 0,
            max_command_bytes: 0,
        };
        let mut seen = Vec::new();
        for line in lines {
            let tokens = tokenize(line)?;
            let [key, value] = tokens.as_slice() else {
                continue;
            };
            let value = value.text();
            let number = |v: &str| -> Result<u64, ParseError> {
                v.parse()
                    .map_err(|_| bad(format!("{} {v:?} is not a number", key.bare)))
            };
            match key.bare.as_str() {
                "protocol" => ready.protocol = number(&value)? as u32,
                "pid" => ready.pid = number(&value)? as u32,
                "os" => ready.os = value,
                "app" => ready.app = value,
                "crate_version" => ready.crate_version = value,
                "started_unix_ms" => ready.started_unix_ms = number(&value)?,
                "queue_capacity" => ready.queue_capacity = number(&value)? as usize,
                "max_command_bytes" => ready.max_command_bytes = number(&value)? as usize,
                _ => continue,
            }
            seen.push(key.bare.clone());
        }
        for required in ["protocol", "pid", "queue_capacity", "max_command_bytes"] {
            if !seen.iter().any(|s| s == required) {
                return Err(bad(format!("no {required} line")));
            }
        }
        Ok(ready)
    }
}

/// Milliseconds since the Unix epoch, now.
pub fn unix_ms_now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or(Duration::ZERO)
        .as_millis() as u64
}

/// `YYYY-MM-DDTHH:MM:SS.mmmZ` for milliseconds since the Unix epoch.
pub fn rfc3339_utc(unix_ms: u64) -> String {
    let secs = unix_ms / 1000;
    let (days, rem) = (secs / 86_400, secs % 86_400);
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm, proleptic Gregorian).
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:03}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60,
        unix_ms % 1000
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_format_as_rfc3339() {
        assert_eq!(rfc3339_utc(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(rfc3339_utc(951_782_400_000), "2000-02-29T00:00:00.000Z");
        assert_eq!(rfc3339_utc(1_796_155_036_123), "2026-12-01T19:57:16.123Z");
    }

    #[test]
    fn the_handshake_round_trips_and_ignores_unknown_keys() {
        let ready = Ready {
            protocol: 1,
            pid: 42,
            os: "windows".into(),
            app: "my \"app\"\n".into(),
            crate_version: "0.1.0".into(),
            started_unix_ms: 5,
            queue_capacity: 8,
            max_command_bytes: 100,
        };
        let text = format!("{}future_key 9\n", ready.to_text());
        assert_eq!(Ready::parse(&text).unwrap(), ready);
        assert_eq!(Ready::parse_protocol(&text), Some(1));
        assert!(Ready::parse("winit-automation ready\nprotocol 1\n").is_err());
    }

    #[test]
    fn a_pid_is_local_unless_the_app_runs_on_another_system() {
        let text =
            "winit-automation ready\nprotocol 6\npid 7\nqueue_capacity 1\nmax_command_bytes 9\n";
        let unsaid = Ready::parse(text).unwrap();
        assert_eq!(unsaid.os, "");
        assert!(unsaid.pid_is_local());
        let here = Ready {
            os: std::env::consts::OS.into(),
            ..unsaid.clone()
        };
        assert!(here.pid_is_local());
        let other = if cfg!(windows) { "linux" } else { "windows" };
        assert!(
            !Ready {
                os: other.into(),
                ..unsaid
            }
            .pid_is_local()
        );
    }
}

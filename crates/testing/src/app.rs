//! The running app's commands: [`App`] sends protocol lines and commands and reads the tree.
//!
//! Starting and stopping the app is in `spawn.rs`, finding nodes (`get_*`, `query_*`,
//! `get_all_*`, `wait_for`) in `find.rs`, actions on a node in `node.rs`, screenshots in
//! `screenshot.rs`, how failures show an error and the tree in `failure.rs`.

use std::path::{Path, PathBuf};
use std::process::Child;
use std::sync::atomic::AtomicU64;
use std::time::Duration;

use crate::secret::shown;

use super::failure::{coded, interactive_snapshot};
use super::tree_text::tree_text;
use winit_automation_client::{Client, ClientError};
use winit_automation_protocol::{ActOptions, Command, KeyChord, Response};

/// A running app, spawned by [`Spawn`]; killed, with what it started (its process group, its
/// Job Object on Windows), when dropped.
///
/// Queries follow egui_kittest's names: `get_*` finds exactly one node or fails the test with the
/// selector and the interactive snapshot; `query_*` allows none; `get_all_*` / `query_all_*`
/// return every match. Queries read the tree as it is now; actions settle before they return
/// (see [`Spawn::settle_actions`]), and [`App::wait_for`] waits for a node to appear.
///
/// [`Spawn`]: super::Spawn
/// [`Spawn::settle_actions`]: super::Spawn::settle_actions
#[derive(Debug)]
pub struct App {
    pub(super) child: Child,
    /// Kills the app's process group (its job on Windows) if this process dies without
    /// dropping the `App` (a signal, `cargo test` interrupted): see `watchdog.rs`.
    pub(super) watchdog: Option<super::watchdog::Watchdog>,
    pub(super) client: Option<Client>,
    pub(super) dir: PathBuf,
    pub(super) log: PathBuf,
    pub(super) settle: bool,
    pub(super) screenshots: AtomicU64,
    /// The trace the app records of the test (`None` when the app could not start one).
    pub(super) trace: Option<Traced>,
    pub(super) _tmp: tempfile::TempDir,
}

/// The trace an [`App`] records from its start: every test's, for the artifacts of a failure,
/// and written to `file` at the end when the test asked for it ([`Spawn::trace`]).
///
/// [`Spawn::trace`]: super::Spawn::trace
#[derive(Debug)]
pub(super) struct Traced {
    pub file: Option<PathBuf>,
}

impl App {
    /// The app's drop-box (private to it; removed when the app is dropped).
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The app's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// The client connected to the app, for anything this harness does not wrap.
    pub fn client(&self) -> &Client {
        self.client
            .as_ref()
            .expect("connected before the App is handed out")
    }

    /// What the app printed on stderr so far.
    pub fn output(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// Sends a protocol line and returns the answer, `ok` or `error`; fails the test only when no
    /// answer came (the app died, the timeout passed).
    #[track_caller]
    pub fn send(&self, line: &str) -> Response {
        // A recorded secret's placeholder is filled from the environment, as scripts do.
        let sent = match crate::secret::from_env(line) {
            Ok(Some(command)) => self.client().send(&command),
            Ok(None) => self.client().send_line(line),
            Err(unset) => panic!("`{}`: {unset}", shown(line)),
        };
        match sent {
            Ok(r) => r,
            Err(e) => self.fail(&shown(line), &e),
        }
    }

    /// Sends a protocol line that must be answered `ok`; returns the answer's body. An `error`
    /// fails the test with the code, message, hint and the interactive snapshot.
    #[track_caller]
    pub fn ok(&self, line: &str) -> String {
        let r = self.send(line);
        if let Some(refusal) = r.error_text() {
            panic!(
                "`{}` was refused:\n{refusal}{}",
                shown(line),
                self.context()
            );
        }
        r.body().to_owned()
    }

    /// Sends a command that must be answered `ok`, as [`App::ok`] does a line.
    #[track_caller]
    pub fn ok_command(&self, command: &Command) -> String {
        // A secret's text never goes into a failure message (a CI log keeps it).
        let shown = command.redacted(false);
        // A command the app holds (a long press, a long wait) is waited for that long, and 2 s
        // more for its answer, as the CLI and the MCP server do.
        let client = self.client();
        let timeout = command.held_in_app_ms().map_or(client.timeout(), |ms| {
            client
                .timeout()
                .max(Duration::from_millis(ms.saturating_add(2_000)))
        });
        let r = match client.send_within(command, timeout) {
            Ok(r) => r,
            Err(e) => self.fail(&shown.to_line(), &e),
        };
        if let Some(refusal) = r.error_text() {
            panic!("`{shown}` was refused:\n{refusal}{}", self.context());
        }
        r.body().to_owned()
    }

    /// The options of an action: `--settle` when actions settle, and `--wait` for the target to
    /// be actionable (a test acts as a person would, on what is there once it is there).
    pub(crate) fn act_options(&self) -> ActOptions {
        ActOptions {
            settle: self.settle,
            wait_ms: Some(winit_automation_protocol::DEFAULT_WAIT_MS),
            ..ActOptions::default()
        }
    }

    #[track_caller]
    pub(super) fn fail(&self, line: &str, e: &ClientError) -> ! {
        panic!(
            "`{line}`: no answer: {}\nthe app's stderr:\n{}",
            coded(e),
            self.output()
        )
    }

    /// The interactive snapshot for a failure message (or why there is none), and the folder
    /// the failure's artifacts were written to (`artifacts.rs`).
    pub(super) fn context(&self) -> String {
        match self.client().send(&interactive_snapshot()) {
            Ok(r) if r.is_ok() => format!(
                "the interactive snapshot now:\n{}{}",
                r.body(),
                self.write_artifacts(r.body())
            ),
            Ok(r) => format!("no snapshot: {}", r.to_text()),
            Err(e) => format!("no snapshot: {e}"),
        }
    }

    /// The interactive snapshot (`snapshot -i --force`): refs, roles, names, state.
    #[track_caller]
    pub fn snapshot(&self) -> String {
        self.ok_command(&interactive_snapshot())
    }

    /// The interactive tree as text that stays the same from run to run for the same UI, for
    /// `insta::assert_snapshot!`: the window and node lines of `snapshot -i`, without the header,
    /// the metrics and the refs (refs depend on what earlier snapshots showed).
    #[track_caller]
    pub fn tree(&self) -> String {
        self.tree_with("-i")
    }

    /// [`App::tree`] for another projection: `""` (what a person sees), `"-i --bounds"`, ...
    #[track_caller]
    pub fn tree_with(&self, flags: &str) -> String {
        let mut options = match Command::parse(&format!("snapshot {flags}")) {
            Ok(Command::Snapshot(options)) => options,
            Ok(other) => panic!("`{other}` is not a snapshot"),
            Err(e) => panic!("snapshot {flags}: {}", coded(&e)),
        };
        options.force = true;
        tree_text(&self.ok_command(&Command::Snapshot(options)))
    }

    /// Waits until the tree has been unchanged for a few frames.
    #[track_caller]
    pub fn settle(&self) {
        self.ok_command(&Command::Settle {
            frames: None,
            timeout_ms: None,
        });
    }

    /// Presses key chords (`"ctrl+a"`, `"Enter"`) in the focused window.
    #[track_caller]
    pub fn key(&self, chords: &str) -> String {
        let chords = chords.split_whitespace().map(KeyChord::parse);
        let chords = match chords.collect::<Result<Vec<_>, _>>() {
            Ok(chords) => chords,
            Err(e) => panic!("{}", coded(&e)),
        };
        self.ok_command(&Command::Key {
            chords,
            opts: self.act_options(),
        })
    }

    /// Types text into the focused node.
    #[track_caller]
    pub fn type_text(&self, text: &str) -> String {
        self.ok_command(&Command::Type {
            text: text.to_owned(),
            secret: false,
            opts: self.act_options(),
        })
    }

    /// Types a secret into the focused node (`type --secret`): the app's answers, journal and
    /// traces, and this harness's failure messages, show a fixed mask instead.
    #[track_caller]
    pub fn type_secret(&self, secret: &str) -> String {
        self.ok_command(&Command::Type {
            text: secret.to_owned(),
            secret: true,
            opts: self.act_options(),
        })
    }

    /// Resizes the focused window to this logical size.
    #[track_caller]
    pub fn resize(&self, width: u32, height: u32) -> String {
        self.ok_command(&Command::Resize {
            width,
            height,
            opts: self.act_options(),
        })
    }
}

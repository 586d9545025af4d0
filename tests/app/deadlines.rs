//! Deadlines, withdrawal and clean-up (docs/protocol.md, section 4.8): a command its client gave up
//! on is never carried out later, unless the client was told it might be, and nothing is left in
//! the directory. Each test lists the directory at its end.
use crate::common;
use crate::common::cli_binary;
use crate::common::fixture;

use std::collections::BTreeSet;
use std::fs;
use std::path::Path;
use std::process::{Command as Process, Stdio};
use std::time::{Duration, Instant};

use common::{ChildApp, ChildKind, Handed, TestApp, eventually, fresh_dir, window_state};
use fixture::Form;
use winit::event::MouseButton;
use winit_automation_client::{Client, ClientError, Fate};
use winit_automation_dropbox::unix_ms_now;
use winit_automation_protocol::taken_file;

/// The child app of [`a_command_sent_to_a_stopped_app_is_withdrawn_and_never_carried_out`]: the
/// form, whose "Remember me" check box toggles on every left click.
pub fn form_child(dir: &Path) {
    let mut form = Form::default();
    TestApp::builder()
        .name("deadline-child")
        .dir(dir)
        .window(window_state("Deadlines", 1.0))
        .tree(form.update())
        .react(move |handed| {
            let clicks = handed
                .iter()
                .filter(|h| **h == Handed::Button(MouseButton::Left, false))
                .count();
            (clicks % 2 == 1).then(|| {
                form.remember = !form.remember;
                form.update()
            })
        })
        .start()
        .run_until_quit();
}

/// The names in the directory.
fn listing(dir: &Path) -> BTreeSet<String> {
    fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect()
}

/// The files an app owns in its directory while it runs; nothing of any command. The app removes
/// an answered entry right after publishing its response, so a client may read the response a
/// moment before the entry goes: the listing is taken again until it is clean, for a while.
fn app_files_only(dir: &Path) {
    let _ = eventually(Duration::from_secs(10), || {
        listing(dir).iter().all(|n| !n.contains('-')).then_some(())
    });
    let names = listing(dir);
    let own = [
        "app.lock",
        "ready.txt",
        "snapshot.txt",
        "accessibility.txt",
        "windows.txt",
    ];
    let stray: Vec<&String> = names
        .iter()
        .filter(|n| !own.contains(&n.as_str()))
        .collect();
    assert!(
        stray.is_empty(),
        "left in the directory: {stray:?} (all: {names:?})"
    );
}

fn signal(pid: u32, sig: &str) {
    let status = Process::new("kill")
        .args([sig, &pid.to_string()])
        .status()
        .expect("run kill");
    assert!(status.success(), "kill {sig} {pid}");
}

fn cli(dir: &Path) -> Process {
    let mut p = Process::new(cli_binary::cli());
    p.arg("--dir").arg(dir).env_remove("WINIT_AUTOMATION_DIR");
    p
}

/// The form in a stepped test app whose first frame has run: its frame loop then stalls until the
/// test runs the next one.
fn stepped_form(
    title: &str,
    configure: impl FnOnce(winit_automation::Builder) -> winit_automation::Builder + 'static,
) -> common::SteppedApp {
    let app = TestApp::builder()
        .window(window_state(title, 1.0))
        .tree(Form::default().update())
        .configure(configure)
        .stepped();
    app.frame(|_| {});
    app
}

/// The check box's line in `find`.
fn remember(client: &Client) -> String {
    let r = client.send_line("find role=checkbox").unwrap();
    assert!(r.is_ok(), "{r:?}");
    r.body().lines().nth(1).unwrap_or_default().to_owned()
}

#[test]
fn a_command_sent_to_a_stopped_app_is_withdrawn_and_never_carried_out() {
    let (_tmp, dir) = fresh_dir();
    let app = ChildApp::start_with(&dir, ChildKind::Form);
    let client = Client::connect(Some(&dir))
        .unwrap()
        .with_timeout(Duration::from_secs(20));
    // The child publishes its tree with its first frame, after its handshake.
    assert!(client.send_line("wait role=checkbox").unwrap().is_ok());
    let before = remember(&client);
    assert!(before.contains(" unchecked"), "{before}");

    signal(app.child.id(), "-STOP");
    let out = cli(&dir)
        .args(["--timeout", "1000", "click", "role=checkbox"])
        .output()
        .unwrap();
    signal(app.child.id(), "-CONT");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{stderr}");
    assert!(stderr.contains("withdrawn, not carried out"), "{stderr}");

    // Every command sent after the resume is answered after the app has looked at the queue
    // again; settling proves frames ran. The click never happened.
    assert!(client.send_line("settle --frames 3").unwrap().is_ok());
    assert_eq!(remember(&client), before);
    // Positive control: the same click, not withdrawn, does toggle it.
    let clicked = client.send_line("click role=checkbox --settle").unwrap();
    assert!(clicked.is_ok(), "{clicked:?}");
    assert!(remember(&client).contains(" checked"));
    app_files_only(&dir);
}

#[test]
fn a_stalled_render_loop_expires_its_action_and_the_commands_behind_it() {
    let app = stepped_form("Stalled", |b| b);
    let client = app.client();
    // The frame loop stalls from here: no frame runs until the end of the test.
    let soon = unix_ms_now() + 3000;
    let click = client
        .enqueue_line(&format!("click role=checkbox --deadline {soon}"))
        .unwrap();
    let typed = client
        .enqueue_line(&format!("type \"x\" --deadline {soon}"))
        .unwrap();
    let later = unix_ms_now() + 20_000;
    let find = client
        .enqueue_line(&format!("find role=button --deadline {later}"))
        .unwrap();

    // `status` is answered at once, and says how long the action has waited.
    let status = eventually(Duration::from_secs(10), || {
        let r = client.send_line("status").unwrap();
        r.body().contains("in_flight 1\n").then_some(r)
    })
    .expect("the click is forwarded and in flight");
    assert!(status.body().contains("in_flight_ms "), "{status:?}");

    for seq in [click, typed] {
        match client.wait(seq) {
            Err(ClientError::Timeout {
                fate: Fate::Expired { message, .. },
                ..
            }) => assert!(message.contains("not carried out"), "{message}"),
            other => panic!("command {seq}: {other:?}"),
        }
    }
    // The command behind them, with time left, is answered.
    let found = client.wait(find).unwrap();
    assert!(found.body().contains("button \"Save\""), "{found:?}");

    // The loop comes back: the withdrawn click and the expired text are not delivered.
    let handed: Vec<Handed> = (0..3).flat_map(|_| app.frame(|_| {})).collect();
    assert!(handed.is_empty(), "{handed:?}");
    let status = client.send_line("status").unwrap();
    assert!(status.body().contains("in_flight 0\n"), "{status:?}");
    app_files_only(app.dir());
}

#[test]
fn an_action_whose_deadline_passes_midway_is_answered_with_what_was_delivered() {
    // With a hover frame a click is two stages: the move, then the press and release.
    let app = stepped_form("Midway", |b| b.hover_frame(true));
    let client = app.client();
    let deadline_ms = unix_ms_now() + 2000;
    let click = client
        .enqueue_line(&format!("click role=checkbox --deadline {deadline_ms}"))
        .unwrap();
    // The first frame that finds the order delivers its first stage (the move).
    let first = eventually(Duration::from_secs(10), || {
        let handed = app.frame(|_| {});
        (!handed.is_empty()).then_some(handed)
    })
    .expect("the click's first stage is delivered");
    assert!(matches!(first[..], [Handed::Move(..)]), "{first:?}");
    // The next frame comes after the deadline: the press and release are dropped.
    let past =
        Instant::now() + Duration::from_millis(deadline_ms.saturating_sub(unix_ms_now()) + 5);
    while Instant::now() <= past {
        std::thread::sleep(past - Instant::now() + Duration::from_millis(1));
    }
    let rest = app.frame(|_| {});
    assert!(rest.is_empty(), "{rest:?}");
    let answer = eventually(Duration::from_secs(10), || {
        app.frame(|_| {});
        app.dir()
            .join(winit_automation_protocol::response_file(click))
            .exists()
            .then_some(())
    });
    assert!(answer.is_some());
    match client.wait(click) {
        Err(ClientError::Timeout {
            fate: Fate::Expired { message, .. },
            ..
        }) => assert!(
            message.contains("after 1 of its 2 input stages"),
            "{message}"
        ),
        other => panic!("{other:?}"),
    }
    app_files_only(app.dir());
}

#[test]
fn a_client_killed_while_waiting_leaves_nothing_behind() {
    let app = stepped_form("Killed", |b| b.response_ttl(Duration::from_millis(300)));
    let mut waiting = cli(app.dir())
        .args(["--timeout", "60000", "click", "role=checkbox"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // The app takes the command (its turn came), then its client dies.
    let taken = eventually(Duration::from_secs(10), || {
        (1..=3).find(|&seq| app.dir().join(taken_file(seq)).exists())
    })
    .expect("the app takes the click");
    waiting.kill().unwrap();
    waiting.wait().unwrap();
    // Taken: it is carried out, and answered to nobody.
    let mut handed = Vec::new();
    let answered = eventually(Duration::from_secs(10), || {
        handed.extend(app.frame(|_| {}));
        app.dir()
            .join(winit_automation_protocol::response_file(taken))
            .exists()
            .then_some(())
    });
    assert!(answered.is_some(), "the click is answered");
    assert!(
        handed.contains(&Handed::Button(MouseButton::Left, false)),
        "{handed:?}"
    );
    // The unread response goes after the response TTL.
    let swept = eventually(Duration::from_secs(10), || {
        let names = listing(app.dir());
        (!names.iter().any(|n| n.starts_with("response-"))).then_some(())
    });
    assert!(swept.is_some(), "{:?}", listing(app.dir()));
    app_files_only(app.dir());
}

#[test]
fn the_cli_wait_waits_for_an_app_that_has_not_started_yet() {
    let (_tmp, dir) = fresh_dir();
    let mut waiting = cli(&dir)
        .args(["--timeout", "20000", "wait", "name=Save"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The CLI says when it starts waiting: only then does the app start.
    let mut stderr = std::io::BufReader::new(waiting.stderr.take().unwrap());
    let mut line = String::new();
    std::io::BufRead::read_line(&mut stderr, &mut line).unwrap();
    assert!(
        line.starts_with("waiting up to 20000 ms for the app to start"),
        "{line}"
    );
    let _app = TestApp::builder()
        .dir(&dir)
        .window(window_state("Late", 1.0))
        .tree(Form::default().update())
        .start();
    let out = waiting.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("button \"Save\""), "{stdout}");
    // Without an app, it gives up at its timeout with the reason.
    let (_tmp2, empty) = fresh_dir();
    let out = cli(&empty)
        .args(["--timeout", "300", "wait", "name=Save"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&out.stderr).contains("app not running"));
}

#[test]
fn a_drag_cut_by_its_deadline_still_lets_go_of_the_button() {
    let app = stepped_form("Drag", |b| b);
    let client = app.client();
    let deadline_ms = unix_ms_now() + 2000;
    let drag = client
        .enqueue_line(&format!(
            "drag role=checkbox to role=button --deadline {deadline_ms}"
        ))
        .unwrap();
    // Frames until the press is delivered.
    let mut handed = Vec::new();
    let pressed = eventually(Duration::from_secs(10), || {
        handed.extend(app.frame(|_| {}));
        handed
            .contains(&Handed::Button(MouseButton::Left, true))
            .then_some(())
    });
    assert!(pressed.is_some(), "{handed:?}");
    assert!(
        !handed.contains(&Handed::Button(MouseButton::Left, false)),
        "the deadline must come between press and release: {handed:?}"
    );
    let past =
        Instant::now() + Duration::from_millis(deadline_ms.saturating_sub(unix_ms_now()) + 5);
    while Instant::now() <= past {
        std::thread::sleep(past - Instant::now() + Duration::from_millis(1));
    }
    // The rest is dropped but the release.
    let rest = app.frame(|_| {});
    assert_eq!(rest, [Handed::Button(MouseButton::Left, false)]);
    let answered = eventually(Duration::from_secs(10), || {
        app.frame(|_| {});
        app.dir()
            .join(winit_automation_protocol::response_file(drag))
            .exists()
            .then_some(())
    });
    assert!(answered.is_some());
    match client.wait(drag) {
        Err(ClientError::Timeout {
            fate: Fate::Expired { message, hint },
            ..
        }) => {
            assert!(message.contains("input stages were delivered"), "{message}");
            assert!(hint.contains("partly carried out"), "{hint}");
        }
        other => panic!("{other:?}"),
    }
    app_files_only(app.dir());
}

#[test]
fn a_command_withdrawn_after_the_app_read_it_never_runs_and_its_seq_is_not_confused() {
    let app = stepped_form("Withdrawn", |b| b);
    let client = app.client();
    let later = unix_ms_now() + 20_000;
    // The frame loop is stalled: the click is in flight, the text waits behind it, read.
    let click = client
        .enqueue_line(&format!("click role=checkbox --deadline {later}"))
        .unwrap();
    let old = client
        .enqueue_line(&format!("type \"OLD\" --deadline {later}"))
        .unwrap();
    eventually(Duration::from_secs(10), || {
        let r = client.send_line("status").unwrap();
        r.body().contains("in_flight 1\n").then_some(())
    })
    .expect("the click is in flight");
    // Its client gives up on the text: withdrawn, though the app has read it.
    assert!(winit_automation_dropbox::queue::withdraw(app.dir(), old).unwrap());
    // A new command, which may get the same seq once the app has cleared the withdrawn one.
    let new = client
        .enqueue_line(&format!("type \"NEW\" --deadline {later}"))
        .unwrap();
    let mut handed = Vec::new();
    for seq in [click, new] {
        let answered = eventually(Duration::from_secs(10), || {
            handed.extend(app.frame(|_| {}));
            app.dir()
                .join(winit_automation_protocol::response_file(seq))
                .exists()
                .then_some(())
        });
        assert!(answered.is_some(), "command {seq} is answered");
        let r = client.wait(seq).unwrap();
        assert!(r.is_ok(), "{r:?}");
    }
    let typed: Vec<&Handed> = handed
        .iter()
        .filter(|h| matches!(h, Handed::Text(_)))
        .collect();
    assert_eq!(typed, [&Handed::Text("NEW".into())]);
    app_files_only(app.dir());
}

#[test]
fn a_client_killed_before_the_app_took_its_command_leaves_nothing_behind() {
    let app = stepped_form("Killed early", |b| {
        b.response_ttl(Duration::from_millis(300))
    });
    let client = app.client();
    // The frame loop is stalled with a click in flight; the CLI's click queues behind it.
    let later = unix_ms_now() + 20_000;
    let first = client
        .enqueue_line(&format!("click role=checkbox --deadline {later}"))
        .unwrap();
    let mut waiting = cli(app.dir())
        .args(["--timeout", "5000", "click", "role=button"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Its entry, found by its line (the `status` commands polled here take seqs too).
    let queued = eventually(Duration::from_secs(10), || {
        let r = client.send_line("status").unwrap();
        if !r.body().contains("in_flight 1\n") {
            return None;
        }
        fs::read_dir(app.dir()).unwrap().find_map(|e| {
            let name = e.unwrap().file_name().to_string_lossy().into_owned();
            let seq = winit_automation_protocol::parse_command_file(&name)?;
            let line = fs::read_to_string(app.dir().join(&name)).ok()?;
            line.contains("role=button").then_some(seq)
        })
    })
    .expect("the CLI's click waits behind the first");
    waiting.kill().unwrap();
    waiting.wait().unwrap();
    // At its deadline the app answers it `expired` (to nobody); the answer goes after the TTL.
    let cleared = eventually(Duration::from_secs(10), || {
        let names = listing(app.dir());
        (!names.iter().any(|n| n.contains(&format!("-{queued}.txt")))).then_some(())
    });
    assert!(cleared.is_some(), "{:?}", listing(app.dir()));
    // The first click is carried out; the second never is.
    let mut handed = Vec::new();
    let answered = eventually(Duration::from_secs(10), || {
        handed.extend(app.frame(|_| {}));
        app.dir()
            .join(winit_automation_protocol::response_file(first))
            .exists()
            .then_some(())
    });
    assert!(answered.is_some());
    assert!(client.wait(first).unwrap().is_ok());
    handed.extend((0..3).flat_map(|_| app.frame(|_| {})));
    let presses = handed
        .iter()
        .filter(|h| **h == Handed::Button(MouseButton::Left, true))
        .count();
    assert_eq!(presses, 1, "{handed:?}");
    app_files_only(app.dir());
}

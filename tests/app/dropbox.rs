//! The drop-box end to end: the real service thread, the client library, and the test app's render
//! loop (tests/common/app.rs). No window, no GPU.
use crate::common;

use std::collections::HashMap;
use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::{Command as Process, Stdio};
use std::time::Duration;

use common::{ChildApp, Handed, TestApp, eventually, fresh_dir, typed};
use winit_automation::Automation;
use winit_automation_client::{Client, ClientError};
use winit_automation_dropbox::EnqueueError;
use winit_automation_protocol::DirError;
use winit_automation_protocol::{
    ErrorCode, Label, PROTOCOL_VERSION, READY_FILE, Response, command_file, response_file,
};

/// Writes raw bytes as the next command entry, the way a shell script would.
fn write_raw_entry(dir: &Path, bytes: &[u8]) -> u64 {
    let listing = winit_automation_dropbox::queue::scan(dir).unwrap();
    let seq = listing.max_seq().map_or(1, |m| m + 1);
    fs::write(dir.join(command_file(seq)), bytes).unwrap();
    seq
}

fn connect(dir: &Path) -> Client {
    Client::connect(Some(dir))
        .unwrap()
        .with_timeout(Duration::from_secs(20))
}

#[test]
fn commands_are_carried_out_in_fifo_order_and_each_response_names_its_seq_and_verb() {
    let (_tmp, dir) = fresh_dir();
    let app = TestApp::builder().dir(&dir).start();
    let client = connect(&dir);
    let seqs: Vec<u64> = (0..40)
        .map(|n| client.enqueue_line(&format!("type \"t{n}\"")).unwrap())
        .collect();
    for (n, seq) in seqs.iter().enumerate() {
        let text = fs::read_to_string(
            eventually(Duration::from_secs(20), || {
                let p = dir.join(response_file(*seq));
                p.exists().then_some(p)
            })
            .expect("a response"),
        )
        .unwrap();
        assert!(text.starts_with(&format!("ok {seq} type\n")), "{text}");
        let response = client.wait(*seq).unwrap();
        assert_eq!(response.seq, *seq);
        assert!(
            response.body().ends_with(&format!("typed \"t{n}\"\n")),
            "{response:?}"
        );
    }
    let expected: Vec<Handed> = (0..40).map(|n| Handed::Text(format!("t{n}"))).collect();
    assert_eq!(common::all(&app.stop()), expected);
}

#[test]
fn status_is_answered_by_the_service_thread_with_the_handshake_facts() {
    let (_tmp, dir) = fresh_dir();
    let _app = TestApp::builder().dir(&dir).start();
    let client = connect(&dir);
    let response = client.send_line("status").unwrap();
    assert!(response.is_ok(), "{response:?}");
    let body = response.body();
    assert!(
        body.contains(&format!("protocol {PROTOCOL_VERSION}\n")),
        "{body}"
    );
    assert!(body.contains("app \"test-app\"\n"), "{body}");
    assert!(
        body.contains(&format!("pid {}\n", std::process::id())),
        "{body}"
    );
    assert!(body.contains("watch inotify\n"), "{body}");
    assert_eq!(client.ready().app, "test-app");
    assert_eq!(client.ready().protocol, PROTOCOL_VERSION);
}

#[test]
fn every_kind_of_bad_input_gets_its_typed_error_and_the_app_keeps_running() {
    let (_tmp, dir) = fresh_dir();
    let _app = TestApp::builder()
        .dir(&dir)
        .configure(|b| b.max_command_bytes(1024))
        .start();
    let client = connect(&dir);
    let cases: Vec<(Vec<u8>, ErrorCode, &str)> = vec![
        (b"jump\n".to_vec(), ErrorCode::UnknownVerb, "-"),
        (b"\n".to_vec(), ErrorCode::EmptyCommand, "-"),
        (b"click\n".to_vec(), ErrorCode::MissingArgument, "click"),
        (
            b"status now\n".to_vec(),
            ErrorCode::UnexpectedArgument,
            "status",
        ),
        (
            b"snapshot --colour\n".to_vec(),
            ErrorCode::UnknownFlag,
            "snapshot",
        ),
        (b"type \"open\n".to_vec(), ErrorCode::BadSyntax, "type"),
        (b"resize 0 0\n".to_vec(), ErrorCode::BadArgument, "resize"),
        (
            b"type \"\xff\xfe\"\n".to_vec(),
            ErrorCode::InvalidUtf8,
            "type",
        ),
        (
            b"status\nquit\n".to_vec(),
            ErrorCode::MultipleLines,
            "status",
        ),
        (
            format!("type \"{}\"\n", "x".repeat(2000)).into_bytes(),
            ErrorCode::TooLong,
            "-",
        ),
    ];
    for (bytes, code, verb) in cases {
        let seq = write_raw_entry(&dir, &bytes);
        let response = client.wait(seq).unwrap();
        assert_eq!(
            response.error_code(),
            Some(code),
            "{:?}: {response:?}",
            String::from_utf8_lossy(&bytes)
        );
        assert_eq!(response.verb, verb);
        let winit_automation_protocol::Outcome::Error { hint, message, .. } = &response.outcome
        else {
            unreachable!()
        };
        assert!(!hint.is_empty() && !message.is_empty());
    }
    // Still alive and answering.
    assert!(client.send_line("status").unwrap().is_ok());
}

#[test]
fn a_half_written_entry_does_not_hold_up_the_queue_and_is_reaped() {
    let (_tmp, dir) = fresh_dir();
    let _app = TestApp::builder()
        .dir(&dir)
        .configure(|b| b.reap_after(Duration::from_millis(3000)))
        .start();
    let client = connect(&dir);
    let half = write_raw_entry(&dir, b"type \"never fin");
    let later = client.enqueue_line("type \"after\"").unwrap();
    let response = client.wait(later).unwrap();
    assert!(response.is_ok());
    let reaped = client.wait(half).unwrap();
    assert_eq!(
        reaped.error_code(),
        Some(ErrorCode::Incomplete),
        "{reaped:?}"
    );
    // The entry is removed right after its response is published (a client may read the
    // response first).
    let gone = eventually(Duration::from_secs(10), || {
        (!dir.join(command_file(half)).exists()).then_some(())
    });
    assert!(gone.is_some(), "the reaped entry is removed");
}

#[test]
fn a_slow_writer_that_keeps_writing_is_not_reaped() {
    let (_tmp, dir) = fresh_dir();
    // The writer takes longer in all than `reap_after`, but never pauses that long: an app that
    // reaped by age instead of by a pause in growth would reap it.
    // Pauses of a twelfth of `reap_after`: far from it even on a loaded machine; fourteen of them
    // add up to more than it.
    let reap_after = Duration::from_millis(3000);
    let _app = TestApp::builder()
        .dir(&dir)
        .configure(move |b| b.reap_after(reap_after))
        .start();
    let client = connect(&dir);
    let seq = write_raw_entry(&dir, b"type");
    let path = dir.join(command_file(seq));
    for chunk in " \"slow writer\"".chars() {
        // The scenario: a writer that writes one character every 250 ms.
        std::thread::sleep(reap_after / 12);
        let chunk = chunk.to_string();
        let mut text = fs::read(&path).unwrap();
        text.extend_from_slice(chunk.as_bytes());
        fs::write(&path, text).unwrap();
    }
    let mut text = fs::read(&path).unwrap();
    text.push(b'\n');
    fs::write(&path, text).unwrap();
    let response = client.wait(seq).unwrap();
    assert!(response.is_ok(), "{response:?}");
    assert!(response.body().contains("typed \"slow writer\""));
}

#[test]
fn commands_left_by_a_previous_run_are_answered_stale_and_never_run() {
    let (_tmp, dir) = fresh_dir();
    winit_automation_dropbox::prepare(&dir).unwrap();
    fs::write(dir.join(command_file(3)), "type \"old\"\n").unwrap();
    fs::write(dir.join(response_file(2)), "ok 2 status\n").unwrap();
    fs::write(dir.join(".tmp-1-0-snapshot.txt"), "junk").unwrap();
    let app = TestApp::builder().dir(&dir).start();
    let client = connect(&dir);
    let stale = client.wait(3).unwrap();
    assert_eq!(stale.error_code(), Some(ErrorCode::StaleCommand));
    assert!(!dir.join(response_file(2)).exists());
    assert!(!dir.join(".tmp-1-0-snapshot.txt").exists());
    assert!(app.stop().is_empty(), "a stale command was carried out");
}

#[test]
fn a_request_the_app_drops_is_answered_not_handled() {
    let (_tmp, dir) = fresh_dir();
    let _app = TestApp::builder().dir(&dir).start();
    // The test app drops the screenshot request named "drop".
    let response = connect(&dir).send_line("screenshot drop").unwrap();
    assert_eq!(response.error_code(), Some(ErrorCode::NotHandled));
}

#[test]
fn an_app_failure_is_an_error_response() {
    let (_tmp, dir) = fresh_dir();
    let _app = TestApp::builder().dir(&dir).start();
    let client = connect(&dir);
    let response = client.send_line("screenshot fail").unwrap();
    assert_eq!(
        response.error_code(),
        Some(ErrorCode::AppError),
        "{response:?}"
    );
    // The app keeps running and answering.
    assert!(client.send_line("key Enter").unwrap().is_ok());
}

#[test]
fn a_full_queue_is_refused_with_queue_full() {
    let (_tmp, dir) = fresh_dir();
    let _app = TestApp::builder()
        .dir(&dir)
        .configure(|b| b.queue_capacity(2).reap_after(Duration::from_secs(60)))
        .start();
    let client = connect(&dir);
    // Two entries that stay waiting: their writers have not finished them.
    write_raw_entry(&dir, b"type \"a");
    write_raw_entry(&dir, b"type \"b");
    match client.enqueue_line("status") {
        Err(ClientError::Enqueue(EnqueueError::QueueFull { capacity: 2 })) => {}
        other => panic!("expected queue full, got {other:?}"),
    }
}

#[test]
fn responses_wait_until_the_frame_that_carried_the_command_out_is_published() {
    let app = TestApp::builder().no_window().stepped();
    let client = app.client();
    // A command the app answers itself.
    let click = client.enqueue_line("screenshot shot").unwrap();
    let windows = client.enqueue_line("windows").unwrap();
    let status = client.enqueue_line("status").unwrap();
    assert!(app.woken(Duration::from_secs(20)), "the waker runs");
    let automation = app.automation();
    // Frames until one carries the click; that frame stays open (unpublished).
    let (frame, input) = eventually(Duration::from_secs(20), || {
        let mut frame = automation.frame();
        let input = frame.input().next()?;
        Some((frame, input))
    })
    .unwrap();
    let winit_automation::Input::Request(request) = input else {
        panic!("expected the screenshot request, got {input:?}");
    };
    assert_eq!(request.seq(), click);
    // windows came after the click, so it waits for the click's answer; status does not wait, so
    // an app that never carries an action out can still be asked how it is. Commands are read in
    // seq order: once status is answered, windows has been read and held back.
    let answer = client.wait(status).unwrap();
    assert!(answer.body().contains("in_flight 1\n"), "{answer:?}");
    assert!(!app.dir().join(response_file(windows)).exists());
    request.reply(Ok("done".into()));
    // The reply reached the service before this status did; the click is still in flight and
    // unanswered, because its frame is not published.
    let answer = app.ok("status");
    assert!(answer.contains("in_flight 1\n"), "{answer}");
    assert!(
        !app.dir().join(response_file(click)).exists(),
        "answered before its frame was published"
    );
    let number = frame.number();
    frame.finish();
    let response = client.wait(click).unwrap();
    assert_eq!(response.body(), format!("frame {number}\ndone\n"));
    assert!(client.wait(windows).unwrap().is_ok());
}

#[test]
fn a_second_app_on_the_same_directory_is_refused_with_the_first_named() {
    let (_tmp, dir) = fresh_dir();
    let _first = TestApp::builder().dir(&dir).start();
    let err = Automation::builder().dir(&dir).start().unwrap_err();
    assert!(
        matches!(err.dir_error(), Some(DirError::Locked { .. })),
        "{err}"
    );
    let text = err.to_string();
    assert!(
        text.contains(&format!("pid {}", std::process::id())),
        "{text}"
    );
    assert!(text.contains("\"test-app\""), "{text}");
}

#[test]
fn hostile_directories_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    // A symlink to a good directory.
    let real = tmp.path().join("real");
    winit_automation_dropbox::prepare(&real).unwrap();
    let link = tmp.path().join("link");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let err = Automation::builder().dir(&link).start().unwrap_err();
    assert!(
        matches!(err.dir_error(), Some(DirError::Symlink { .. })),
        "{err}"
    );

    // Writable by group and others.
    let open = tmp.path().join("open");
    fs::create_dir(&open).unwrap();
    fs::set_permissions(&open, fs::Permissions::from_mode(0o777)).unwrap();
    let err = Automation::builder().dir(&open).start().unwrap_err();
    assert!(
        matches!(err.dir_error(), Some(DirError::Writable { .. })),
        "{err}"
    );
    // The hint is apart from the message.
    assert!(err.hint().is_some_and(|h| h.contains("chmod 700")), "{err}");
    assert!(!err.to_string().contains("hint:"), "{err}");

    // Owned by another user: as root, give one away; otherwise the root-owned `/` is foreign.
    let foreign = if rustix::process::geteuid().is_root() {
        let d = tmp.path().join("foreign");
        fs::create_dir(&d).unwrap();
        fs::set_permissions(&d, fs::Permissions::from_mode(0o700)).unwrap();
        std::os::unix::fs::chown(&d, Some(65534), Some(65534)).unwrap();
        d
    } else {
        "/".into()
    };
    let err = Automation::builder().dir(&foreign).start().unwrap_err();
    assert!(
        matches!(err.dir_error(), Some(DirError::NotOwned { .. })),
        "{err}"
    );

    // None of them got a handshake.
    for d in [&real, &open] {
        assert!(!d.join(READY_FILE).exists());
    }
}

#[test]
fn a_killed_app_is_reported_as_exited_and_a_restart_recovers_the_directory() {
    let (_tmp, dir) = fresh_dir();
    let mut app = ChildApp::start(&dir);
    let pid = app.child.id();
    // A one-second budget: the client must notice the death well within it, not time out.
    let client = Client::connect(Some(&dir))
        .unwrap()
        .with_timeout(Duration::from_secs(1));
    assert!(client.send_line("status").unwrap().is_ok());
    app.kill();
    match client.send_line("type \"lost\"") {
        Err(ClientError::AppExited { pid: p, .. }) => assert_eq!(p, pid),
        other => panic!("expected app exited, got {other:?}"),
    }
    match Client::connect(Some(&dir)) {
        Err(e @ ClientError::AppExited { .. }) => {
            assert!(e.to_string().contains(&format!("pid {pid} exited")), "{e}")
        }
        other => panic!("expected app exited, got {other:?}"),
    }
    // The killed app left its handshake, lock and an unanswered command: a new app takes over.
    assert!(dir.join(READY_FILE).exists());
    assert_eq!(
        winit_automation_dropbox::queue::scan(&dir)
            .unwrap()
            .commands
            .len(),
        1
    );
    let restarted = TestApp::builder().dir(&dir).start();
    let client = connect(&dir);
    assert_eq!(client.ready().pid, std::process::id());
    assert!(client.send_line("status").unwrap().is_ok());
    assert!(
        restarted.stop().is_empty(),
        "the dead app's command must not run"
    );
}

#[test]
fn a_clean_exit_removes_the_handshake() {
    let (_tmp, dir) = fresh_dir();
    let app = TestApp::builder().dir(&dir).start();
    assert!(dir.join(READY_FILE).exists());
    app.stop();
    assert!(!dir.join(READY_FILE).exists());
    assert!(matches!(
        Client::connect(Some(&dir)),
        Err(ClientError::NotRunning { .. })
    ));
    // And a new app starts in the same directory.
    let again = TestApp::builder().dir(&dir).start();
    assert!(connect(&dir).send_line("status").unwrap().is_ok());
    drop(again);
}

#[test]
fn quit_is_answered_before_the_app_goes() {
    let (_tmp, dir) = fresh_dir();
    let app = ChildApp::start(&dir);
    let response = connect(&dir).send_line("quit").unwrap();
    assert!(response.is_ok(), "{response:?}");
    let mut child = app;
    let status = eventually(Duration::from_secs(20), || child.child.try_wait().unwrap());
    assert!(status.expect("the app exits after quit").success());
    assert!(!dir.join(READY_FILE).exists());
}

#[test]
fn a_screenshot_label_cannot_name_a_path_outside_the_directory() {
    let (tmp, dir) = fresh_dir();
    let _app = TestApp::builder().dir(&dir).start();
    let client = connect(&dir);
    let before: Vec<_> = fs::read_dir(tmp.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    for label in ["../../x", "../x", "/tmp/x", "..", "a/b"] {
        let response = client
            .send_line(&format!(
                "screenshot {}",
                winit_automation_protocol::quote(label)
            ))
            .unwrap();
        assert_eq!(
            response.error_code(),
            Some(ErrorCode::BadArgument),
            "{label}"
        );
    }
    let after: Vec<_> = fs::read_dir(tmp.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(before, after);
    assert!(Label::new("ok-label").is_ok());
}

#[test]
fn clean_removes_the_older_screenshots_and_nothing_else() {
    let app = TestApp::builder().start();
    let dir = app.dir();
    let outside = tempfile::tempdir().unwrap();
    let target = outside.path().join("screenshot-outside.png");
    fs::write(&target, b"not the app's").unwrap();
    let now = std::time::SystemTime::now();
    for (name, age_s, bytes) in [
        ("screenshot-new.png", 10, 3),
        ("screenshot-mid.png", 20, 2),
        ("screenshot-old.png", 30, 1),
    ] {
        let file = fs::File::create(dir.join(name)).unwrap();
        file.set_len(bytes).unwrap();
        file.set_modified(now - Duration::from_secs(age_s)).unwrap();
    }
    fs::write(dir.join("notes.txt"), b"mine").unwrap();
    std::os::unix::fs::symlink(&target, dir.join("screenshot-link.png")).unwrap();
    let ours = || -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .filter(|n| n.starts_with("screenshot-") || n == "notes.txt")
            .collect();
        names.sort();
        names
    };
    let everything = ours();

    assert_eq!(
        app.ok("clean --keep 1 --dry-run"),
        "kept screenshot-new.png bytes 3\n\
         would_remove screenshot-mid.png bytes 2\n\
         would_remove screenshot-old.png bytes 1\n\
         total 3 kept 1 would_remove 2 would_free_bytes 3\n"
    );
    assert_eq!(ours(), everything);

    assert_eq!(
        app.ok("clean --keep 1"),
        "kept screenshot-new.png bytes 3\n\
         removed screenshot-mid.png bytes 2\n\
         removed screenshot-old.png bytes 1\n\
         total 3 kept 1 removed 2 failed 0 freed_bytes 3\n"
    );
    assert_eq!(
        ours(),
        ["notes.txt", "screenshot-link.png", "screenshot-new.png"]
    );
    assert!(dir.join("screenshot-link.png").is_symlink());
    assert_eq!(fs::read(&target).unwrap(), b"not the app's");

    assert_eq!(
        app.ok("clean"),
        "removed screenshot-new.png bytes 3\n\
         total 1 kept 0 removed 1 failed 0 freed_bytes 3\n"
    );
    assert_eq!(ours(), ["notes.txt", "screenshot-link.png"]);
    assert_eq!(fs::read(&target).unwrap(), b"not the app's");
}

/// One writer process: pipelines `type "w<id>-<n>"` commands, keeping up to 16 unanswered, and
/// checks that each answer is its own.
#[test]
#[ignore = "entry point of the writer processes the concurrency test starts"]
fn writer_child() {
    let dir = std::env::var("WA_TEST_WRITER_DIR").expect("WA_TEST_WRITER_DIR");
    let id: usize = std::env::var("WA_TEST_WRITER_ID").unwrap().parse().unwrap();
    let count: usize = std::env::var("WA_TEST_WRITER_COUNT")
        .unwrap()
        .parse()
        .unwrap();
    let client = Client::connect(Some(Path::new(&dir)))
        .unwrap()
        .with_timeout(Duration::from_secs(60));
    let mut pending = std::collections::VecDeque::new();
    let check = |(seq, n): (u64, usize), r: Response| {
        assert_eq!(r.seq, seq);
        assert!(
            r.body().ends_with(&format!("typed \"w{id}-{n}\"\n")),
            "seq {seq}: {r:?}"
        );
    };
    let mut n = 0;
    while n < count {
        if pending.len() >= 16 {
            let (seq, m) = pending.pop_front().unwrap();
            check((seq, m), client.wait(seq).unwrap());
        }
        match client.enqueue_line(&format!("type \"w{id}-{n}\"")) {
            Ok(seq) => {
                pending.push_back((seq, n));
                n += 1;
            }
            Err(ClientError::Enqueue(EnqueueError::QueueFull { .. })) => {
                match pending.pop_front() {
                    Some((seq, m)) => check((seq, m), client.wait(seq).unwrap()),
                    // Full of other writers' entries: back off briefly and try again.
                    None => std::thread::sleep(Duration::from_millis(1)),
                }
            }
            Err(e) => panic!("writer {id}: {e}"),
        }
    }
    while let Some((seq, m)) = pending.pop_front() {
        check((seq, m), client.wait(seq).unwrap());
    }
}

#[test]
fn sixteen_writer_processes_get_every_command_answered_once_in_per_writer_order() {
    const WRITERS: usize = 16;
    const EACH: usize = 250;
    let (_tmp, dir) = fresh_dir();
    let app = TestApp::builder().dir(&dir).start();
    let children: Vec<_> = (0..WRITERS)
        .map(|id| {
            Process::new(std::env::current_exe().unwrap())
                .args([
                    "--ignored",
                    "--exact",
                    "dropbox::writer_child",
                    "--test-threads=1",
                ])
                .env("WA_TEST_WRITER_DIR", &dir)
                .env("WA_TEST_WRITER_ID", id.to_string())
                .env("WA_TEST_WRITER_COUNT", EACH.to_string())
                .stdout(Stdio::null())
                .spawn()
                .unwrap()
        })
        .collect();
    for mut child in children {
        assert!(child.wait().unwrap().success(), "a writer failed");
    }
    let typed = typed(&app.stop());
    assert_eq!(
        typed.len(),
        WRITERS * EACH,
        "every command carried out once"
    );
    let mut next: HashMap<usize, usize> = HashMap::new();
    for text in &typed {
        let (id, n) = text[1..].split_once('-').unwrap();
        let (id, n): (usize, usize) = (id.parse().unwrap(), n.parse().unwrap());
        let expected = next.entry(id).or_insert(0);
        assert_eq!(n, *expected, "writer {id} out of order");
        *expected += 1;
    }
    assert!(next.values().all(|&n| n == EACH));
    // Nothing left behind: no entries and no unread responses.
    let left = winit_automation_dropbox::queue::scan(&dir).unwrap();
    assert!(
        left.commands.is_empty() && left.responses.is_empty(),
        "{left:?}"
    );
}

#[test]
fn a_reader_never_sees_a_torn_file_while_it_is_republished() {
    let (_tmp, dir) = fresh_dir();
    winit_automation_dropbox::prepare(&dir).unwrap();
    let version = |k: usize| {
        let filler = "x".repeat((k * 7919) % 60_000);
        format!("v{k} len {}\n{filler}\nend\n", filler.len())
    };
    winit_automation_dropbox::publish(&dir, "snapshot.txt", version(0).as_bytes()).unwrap();
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let reader = {
        let (dir, stop) = (dir.clone(), stop.clone());
        std::thread::spawn(move || {
            let mut reads = 0u64;
            while !stop.load(std::sync::atomic::Ordering::Relaxed) || reads < 1000 {
                let text = fs::read_to_string(dir.join("snapshot.txt")).unwrap();
                let (head, rest) = text.split_once('\n').expect("a complete header");
                let len: usize = head.rsplit_once(' ').unwrap().1.parse().unwrap();
                assert_eq!(rest.len(), len + "\nend\n".len(), "torn read of {head}");
                assert!(rest.ends_with("\nend\n"), "torn read of {head}");
                reads += 1;
            }
            reads
        })
    };
    for k in 1..=5000 {
        winit_automation_dropbox::publish(&dir, "snapshot.txt", version(k).as_bytes()).unwrap();
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let reads = reader.join().expect("no torn read");
    assert!(reads >= 1000);
    // No temporaries left over.
    let names: Vec<_> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, ["snapshot.txt"]);
}

#[test]
fn a_directory_planted_as_an_entry_is_answered_once_and_never_blocks_start() {
    let (_tmp, dir) = fresh_dir();
    winit_automation_dropbox::prepare(&dir).unwrap();
    // Left over before the app starts, and not empty, so it cannot be removed.
    fs::create_dir(dir.join(command_file(1))).unwrap();
    fs::write(dir.join(command_file(1)).join("x"), "").unwrap();
    let _app = TestApp::builder().dir(&dir).start();
    let client = connect(&dir);
    assert_eq!(
        client.wait(1).unwrap().error_code(),
        Some(ErrorCode::StaleCommand)
    );
    // One planted while the app runs, non-empty from the start (built aside, renamed in).
    let staging = dir.join("staging");
    fs::create_dir(&staging).unwrap();
    fs::write(staging.join("x"), "").unwrap();
    fs::rename(&staging, dir.join(command_file(5))).unwrap();
    let first = client.wait(5).unwrap();
    assert_eq!(first.error_code(), Some(ErrorCode::BadEntry), "{first:?}");
    // The queue moves on, and neither seq is answered again: the status behind them is answered
    // after a full scan of the directory, which still holds both entries, and the app answers in
    // seq order, so an answer given again would be on disk by now.
    let scanned = client.send_line("status").unwrap();
    assert!(scanned.is_ok());
    assert!(
        scanned.body().contains("queue 3\n"),
        "the scan saw both planted entries and the status: {scanned:?}"
    );
    assert!(!dir.join(response_file(1)).exists());
    assert!(!dir.join(response_file(5)).exists());
}

#[test]
fn a_crash_between_answering_and_removing_keeps_the_real_answer() {
    let (_tmp, dir) = fresh_dir();
    winit_automation_dropbox::prepare(&dir).unwrap();
    fs::write(dir.join(command_file(4)), "type \"done\"\n").unwrap();
    fs::write(
        dir.join(response_file(4)),
        "ok 4 type\nframe 9\ntyped \"done\"\n",
    )
    .unwrap();
    let app = TestApp::builder().dir(&dir).start();
    let response = connect(&dir).wait(4).unwrap();
    assert!(response.is_ok(), "{response:?}");
    assert!(!dir.join(command_file(4)).exists());
    assert!(app.stop().is_empty());
}

/// Connects to the app in `dir` once it is there again, and has `status` answered; how long that
/// took from `since`.
fn answered_again(dir: &Path, since: std::time::Instant) -> Duration {
    let client = Client::connect_waiting(Some(dir), Duration::from_secs(20), |_| {})
        .expect("the app makes its drop-box again")
        .with_timeout(Duration::from_secs(20));
    let response = client.send_line("status").unwrap();
    assert!(response.is_ok(), "{response:?}");
    since.elapsed()
}

#[test]
fn a_drop_box_removed_under_the_app_is_made_again_and_the_next_command_works() {
    let (tmp, dir) = fresh_dir();
    let app = TestApp::builder().dir(&dir).start();
    let before = connect(&dir);
    assert!(before.send_line("type \"before\"").unwrap().is_ok());
    let ready = fs::read_to_string(dir.join(READY_FILE)).unwrap();
    // `rm -rf` of the drop-box, then (as `cargo clean` does to target/winit-automation) of the
    // directory above it too.
    for removed in [dir.as_path(), tmp.path()] {
        let status = Process::new("rm").arg("-rf").arg(removed).status().unwrap();
        assert!(status.success());
        let since = std::time::Instant::now();
        let took = answered_again(&dir, since);
        println!(
            "{} removed: a new client's status answered after {took:?}",
            removed.display()
        );
        // Made again with the start's checks and files: mode 0700, the lock, the same handshake.
        let mode = fs::metadata(&dir).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o700);
        assert_eq!(fs::read_to_string(dir.join(READY_FILE)).unwrap(), ready);
        let second = Automation::builder().dir(&dir).start().unwrap_err();
        assert!(
            matches!(second.dir_error(), Some(DirError::Locked { .. })),
            "{second}"
        );
        // The artifacts are published again.
        assert!(
            eventually(Duration::from_secs(20), || {
                dir.join("snapshot.txt").exists().then_some(())
            })
            .is_some()
        );
    }
    // Actions go on; a client connected before the removals still gets its answers (its watch
    // went with the first directory: it finds them at its liveness checks).
    assert!(connect(&dir).send_line("type \"after\"").unwrap().is_ok());
    assert!(before.send_line("type \"old client\"").unwrap().is_ok());
    assert_eq!(typed(&app.stop()), ["before", "after", "old client"]);
    assert!(!dir.join(READY_FILE).exists(), "a clean exit removes it");
}

/// Swaps the two paths in one step (`renameat2` with `RENAME_EXCHANGE`), so that the app never
/// finds the drop-box's path missing in between (it would make it again at once).
fn exchange(a: &Path, b: &Path) {
    use rustix::fs::{CWD, RenameFlags, renameat_with};
    renameat_with(CWD, a, CWD, b, RenameFlags::EXCHANGE).unwrap();
}

/// Waits until the app's stderr, in `log`, has `count` lines holding `text`; returns all of it.
fn logged(log: &Path, text: &str, count: usize) -> String {
    eventually(Duration::from_secs(20), || {
        let out = fs::read_to_string(log).unwrap_or_default();
        (out.lines().filter(|l| l.contains(text)).count() >= count).then_some(out)
    })
    .unwrap_or_else(|| {
        panic!(
            "no {text:?} in the app's stderr:\n{}",
            fs::read_to_string(log).unwrap_or_default()
        )
    })
}

#[test]
fn a_symlink_or_an_open_directory_in_its_place_is_refused_and_logged_until_the_path_is_safe() {
    let (tmp, dir) = fresh_dir();
    let log = tmp.path().join("app.log");
    let stderr = fs::File::create(&log).unwrap();
    let mut app = ChildApp::start_to(&dir, common::ChildKind::Plain, stderr.into());
    assert!(connect(&dir).send_line("status").unwrap().is_ok());

    // A symlink to a directory of this user's takes the path.
    let elsewhere = tmp.path().join("elsewhere");
    winit_automation_dropbox::prepare(&elsewhere).unwrap();
    let link = tmp.path().join("link");
    std::os::unix::fs::symlink(&elsewhere, &link).unwrap();
    exchange(&dir, &link);
    let since = std::time::Instant::now();
    let out = logged(&log, "is a symbolic link", 1);
    println!(
        "replaced by a symlink: refused and logged after {:?}",
        since.elapsed()
    );
    assert!(
        out.contains(&format!(
            "no drop-box: {} is a symbolic link",
            dir.display()
        )),
        "{out}"
    );
    assert!(
        app.child.try_wait().unwrap().is_none(),
        "the app keeps running"
    );
    // Clients refuse the path too, and the app wrote nothing through it.
    assert!(matches!(
        Client::connect(Some(&dir)),
        Err(ClientError::Dir(DirError::Symlink { .. }))
    ));
    assert_eq!(fs::read_dir(&elsewhere).unwrap().count(), 0);

    // A directory others may write in takes the path: refused, for a new reason.
    let open = tmp.path().join("open");
    fs::create_dir(&open).unwrap();
    fs::set_permissions(&open, fs::Permissions::from_mode(0o777)).unwrap();
    exchange(&dir, &open);
    let out = logged(&log, "is writable by group or others", 1);
    assert!(
        out.contains(&format!("chmod 700 {}", dir.display())),
        "{out}"
    );
    assert!(
        app.child.try_wait().unwrap().is_none(),
        "the app keeps running"
    );
    assert!(!dir.join(READY_FILE).exists());

    // Made safe, it is taken, and commands work.
    fs::set_permissions(&dir, fs::Permissions::from_mode(0o700)).unwrap();
    let took = answered_again(&dir, std::time::Instant::now());
    println!("made safe: status answered after {took:?}");
    assert!(connect(&dir).send_line("key Enter").unwrap().is_ok());
    let out = logged(&log, "is safe again; took it", 1);
    // One line per event: each refusal was logged once, however often the path was looked at.
    for line in ["is a symbolic link", "is writable by group or others"] {
        assert_eq!(out.lines().filter(|l| l.contains(line)).count(), 1, "{out}");
    }
    assert!(app.child.try_wait().unwrap().is_none());
    app.kill();
}

//! `journal`: every command any client sent, as the app answered it, in answer order, with refs and
//! points named by selectors (docs/protocol.md, section 6.5). Against the in-process test app.
use crate::common;
use crate::common::cli_binary;
use crate::common::fixture;

use std::time::{Duration, Instant};

use accesskit::{NodeId, Role, TreeUpdate};
use common::{PATIENCE, TestApp, eventually, frame_of, window_state};
use fixture::{node, tree};
use winit_automation_client::Client;
use winit_automation_protocol::{JournalAnswer, JournalEntry, Response, response_file, taken_file};

/// A window "Journal" with a button "Save" at 10,10 and two buttons "OK" side by side below it.
fn buttons() -> TreeUpdate {
    let mut update = tree(vec![
        (
            1,
            node(
                Role::Window,
                "Journal",
                [0.0, 0.0, 800.0, 600.0],
                &[2, 3, 4],
            ),
        ),
        (
            2,
            node(Role::Button, "Save", [10.0, 10.0, 110.0, 40.0], &[]),
        ),
        (3, node(Role::Button, "OK", [10.0, 50.0, 110.0, 80.0], &[])),
        (4, node(Role::Button, "OK", [120.0, 50.0, 220.0, 80.0], &[])),
    ]);
    update.focus = NodeId(1);
    update
}

fn app() -> TestApp {
    TestApp::builder()
        .name("journal")
        .window(window_state("Journal", 1.0))
        .tree(buttons())
        .start()
}

fn parse(body: &str) -> JournalAnswer {
    JournalAnswer::parse(body).unwrap_or_else(|e| panic!("{e}: {body}"))
}

/// An entry's target lines without their `target `: `role=...`, `from role=...`.
fn targets(entry: &JournalEntry) -> Vec<String> {
    entry
        .targets
        .iter()
        .map(|t| t.to_string()["target ".len()..].to_owned())
        .collect()
}

fn journal(app: &TestApp, args: &str) -> JournalAnswer {
    parse(&app.ok(&format!("journal {args}")))
}

#[test]
fn commands_from_two_clients_appear_in_answer_order_with_seqs_outcomes_and_targets() {
    let app = app();
    let save = app.found_ref("role=button name=\"Save\"");
    let other = Client::connect(Some(app.dir()))
        .unwrap()
        .with_timeout(PATIENCE);
    let start = journal(&app, "").next;

    let clicked = app.send(&format!("click {save}"));
    assert!(clicked.is_ok(), "{clicked:?}");
    let refused = other.send_line("click @e999").unwrap();
    assert_eq!(refused.failure().unwrap().code.as_str(), "not_found");
    let found = other.send_line("find role=button").unwrap();
    // Not journaled: status (the harness's frame polls) and journal itself.
    app.ok("status");
    journal(&app, "");

    let j = journal(&app, &format!("--after {start}"));
    assert_eq!(j.lost, None);
    assert_eq!(j.next, start + 3, "{j:?}");
    let indexes: Vec<u64> = j.entries.iter().map(|e| e.index).collect();
    assert_eq!(indexes, [start + 1, start + 2, start + 3]);
    let seqs: Vec<u64> = j.entries.iter().map(|e| e.seq).collect();
    assert_eq!(seqs, [clicked.seq, refused.seq, found.seq]);
    let [click, error, find] = &j.entries[..] else {
        panic!("{j:?}")
    };
    assert_eq!(
        (click.code.as_deref(), click.frame, click.line.as_str()),
        (
            None,
            Some(frame_of(&clicked)),
            format!("click {save}").as_str()
        )
    );
    assert_eq!(targets(click), ["role=button name=\"Save\""]);
    assert_eq!(
        (error.code.as_deref(), error.frame, error.line.as_str()),
        (Some("not_found"), None, "click @e999")
    );
    assert!(error.targets.is_empty(), "{error:?}");
    assert_eq!(
        (find.code.as_deref(), find.frame, find.line.as_str()),
        (None, None, "find role=button")
    );
    assert!(
        find.targets.is_empty(),
        "a selector needs no naming: {find:?}"
    );

    // Everything kept: the `find` that minted the ref comes first.
    let all = journal(&app, "");
    assert_eq!(all.next, start + 3);
    assert_eq!(all.entries.len() as u64, start + 3);
    assert_eq!(
        all.entries[0].line, "find role=button name=\"Save\"",
        "{all:?}"
    );
}

#[test]
fn points_name_the_node_under_them_and_twins_get_their_index() {
    let app = app();
    let left_ok = app.found_ref("role=button name=\"OK\" nth=0");
    let start = journal(&app, "").next;
    app.ok("click 170,65");
    app.ok(&format!("click {left_ok}"));
    app.ok("click 400,300");
    app.ok(&format!("drag {left_ok} to 170,65"));
    app.ok(&format!("get {left_ok}"));
    app.ok("snapshot --scope 60,25 --force");
    app.ok("click role=button name=\"OK\" nth=1");

    let j = journal(&app, &format!("--after {start}"));
    let named: Vec<Vec<String>> = j.entries.iter().map(targets).collect();
    assert_eq!(
        named,
        [
            vec!["role=button name=\"OK\" nth=1".to_owned()],
            vec!["role=button name=\"OK\" nth=0".to_owned()],
            // Over no button: the window itself.
            vec!["role=window name=\"Journal\"".to_owned()],
            vec![
                "from role=button name=\"OK\" nth=0".to_owned(),
                "to role=button name=\"OK\" nth=1".to_owned()
            ],
            vec!["role=button name=\"OK\" nth=0".to_owned()],
            vec!["role=button name=\"Save\"".to_owned()],
            vec![],
        ],
        "{j:?}"
    );
    assert!(j.entries[4].is_ok());
    assert_eq!(j.entries[4].line, format!("get {left_ok}"));
}

#[test]
fn after_returns_only_newer_entries_and_next_advances() {
    let app = app();
    app.ok("windows");
    let first = journal(&app, "");
    assert_eq!(first.next, 1);
    assert_eq!(first.entries.len(), 1);
    app.ok("find role=button");
    app.ok("get role=button name=\"Save\"");
    let second = journal(&app, &format!("--after {}", first.next));
    assert_eq!(second.next, 3);
    let entries: Vec<(u64, &str)> = second
        .entries
        .iter()
        .map(|e| (e.index, e.line.as_str()))
        .collect();
    assert_eq!(
        entries,
        [
            (2, "find role=button"),
            (3, "get role=button name=\"Save\"")
        ],
        "{second:?}"
    );
    // Nothing newer: `next` stays, also past the last index.
    let none = journal(&app, "--after 3");
    assert_eq!((none.next, none.entries.len()), (3, 0));
    let beyond = journal(&app, "--after 50");
    assert_eq!(
        (beyond.next, beyond.entries.len(), beyond.lost),
        (50, 0, None)
    );
}

#[test]
fn a_long_poll_is_answered_by_the_next_command_not_at_its_timeout() {
    let app = app();
    let save = app.found_ref("role=button name=\"Save\"");
    let after = journal(&app, "").next;
    let sent = Instant::now();
    let poll = app
        .client()
        .enqueue_line(&format!("journal --after {after} --wait 5000"))
        .unwrap();
    // The poll has had its turn and waits: its entry is taken and not answered.
    let dir = app.dir().to_owned();
    eventually(PATIENCE, || {
        (dir.join(taken_file(poll)).exists() && !dir.join(response_file(poll)).exists())
            .then_some(())
    })
    .expect("the long poll waits");
    let clicked = app.send(&format!("click {save}"));
    assert!(clicked.is_ok(), "{clicked:?}");
    let answer = app.client().wait(poll).unwrap();
    let waited = sent.elapsed();
    assert!(answer.is_ok(), "{answer:?}");
    let j = parse(answer.body());
    assert_eq!(j.next, after + 1, "{j:?}");
    assert_eq!(j.entries.len(), 1, "{j:?}");
    assert_eq!(j.entries[0].seq, clicked.seq);
    assert_eq!(targets(&j.entries[0]), ["role=button name=\"Save\""]);
    assert!(
        waited < Duration::from_millis(5000),
        "answered at its timeout: {waited:?}"
    );
}

#[test]
fn a_long_poll_with_nothing_new_is_answered_empty_at_its_timeout() {
    let app = app();
    app.ok("windows");
    let after = journal(&app, "").next;
    let sent = Instant::now();
    let answer = app.send(&format!("journal --after {after} --wait 200"));
    let waited = sent.elapsed();
    assert!(
        answer.is_ok(),
        "a long poll's timeout is no error: {answer:?}"
    );
    assert_eq!(answer.body(), format!("next {after}\n"));
    assert!(waited >= Duration::from_millis(200), "{waited:?}");
    // Without --timeout it answers at once, also with nothing new.
    assert_eq!(
        app.ok(&format!("journal --after {after}")),
        format!("next {after}\n")
    );
}

#[test]
fn entries_dropped_from_the_ring_are_counted_lost() {
    let app = app();
    let sent: u64 = 1024 + 76;
    let mut seqs = Vec::new();
    for _ in 0..sent {
        seqs.push(app.send("windows").seq);
    }
    let all = journal(&app, "");
    assert_eq!(all.next, sent);
    assert_eq!(all.lost, Some(76));
    assert_eq!(all.entries.len(), 1024);
    assert_eq!(all.entries[0].index, 77);
    assert_eq!(all.entries[0].seq, seqs[76]);
    assert_eq!(all.entries.last().unwrap().seq, *seqs.last().unwrap());
    // A reader that kept up loses nothing.
    let recent = journal(&app, "--after 1000");
    assert_eq!((recent.lost, recent.entries.len()), (None, 100));
    let behind = journal(&app, "--after 70");
    assert_eq!((behind.lost, behind.entries.len()), (Some(6), 1024));
}

#[test]
fn the_cli_prints_the_journal_and_long_polls_with_wait() {
    use std::process::Command as Process;
    let app = app();
    app.ok("windows");
    let cli = |args: &[&str]| {
        Process::new(cli_binary::cli())
            .arg("--dir")
            .arg(app.dir())
            .args(args)
            .env_remove("WINIT_AUTOMATION_DIR")
            .output()
            .expect("run the CLI")
    };
    let out = cli(&["journal"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "next 1\nentry 1 seq=1 ok \"windows\"\n"
    );
    let out = cli(&["journal", "--after", "1", "--wait", "100"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "next 1\n");
}

#[test]
fn a_long_poll_waiting_at_shutdown_is_answered_with_what_came_last() {
    let (_tmp, dir) = common::fresh_dir();
    let app = TestApp::builder()
        .dir(&dir)
        .window(window_state("Journal", 1.0))
        .tree(buttons())
        .start();
    app.ok("windows");
    let poll = app
        .client()
        .enqueue_line("journal --after 1 --wait 60000")
        .unwrap();
    eventually(PATIENCE, || {
        dir.join(taken_file(poll)).exists().then_some(())
    })
    .expect("the long poll waits");
    app.stop();
    let text = std::fs::read_to_string(dir.join(response_file(poll))).unwrap();
    let answer = Response::parse(&text).unwrap();
    assert!(answer.is_ok(), "{answer:?}");
    assert_eq!(answer.body(), "next 1\n");
}

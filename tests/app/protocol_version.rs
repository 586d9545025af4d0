//! The protocol version says what changed: one golden holds what `PROTOCOL_VERSION` covers, the
//! directory's file kinds and one line of each view, taken from a real app on a fixture of its own.
//!
//! The golden's first line is `protocol <PROTOCOL_VERSION>`. When the golden changes while that line
//! stays the same, the test fails with "this changes the protocol: bump PROTOCOL_VERSION and add a
//! line to docs/protocol.md section 7" before insta is asked, so accepting the new golden alone
//! (`INSTA_UPDATE=always`, `cargo insta accept`) cannot let a protocol change pass as version N.
//! Once the version is bumped, the golden's first line differs, and insta shows the new golden for
//! review as usual. docs/protocol.md section 7 says what counts as a change; additions it lists as
//! compatible (a verb, a flag, a code, a `ready.txt` key, a `status` line) are not pinned here.
use crate::common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::Duration;

use accesskit::{Action, Node, NodeId, Rect, Role, Toggled, TreeId, TreeInfo, TreeUpdate};
use common::{PATIENCE, SteppedApp, TestApp, window_id, window_state};
use winit_automation_dropbox::queue;
use winit_automation_protocol::{
    ACCESSIBILITY_FILE, LOCK_FILE, Label, PROTOCOL_VERSION, READY_FILE, SNAPSHOT_FILE, TEMP_PREFIX,
    WINDOWS_FILE, command_file, parse_command_file, parse_response_file, parse_taken_file,
    parse_withdrawn_file, response_file, taken_file, withdrawn_file,
};

/// What the test says when the golden changed and the version did not.
const BUMP: &str =
    "this changes the protocol: bump PROTOCOL_VERSION and add a line to docs/protocol.md section 7";

/// The golden, as insta names it (`assert_snapshot!("protocol", ..)` in this file).
const GOLDEN: &str = "tests/app/snapshots/app__protocol_version__protocol.snap";

/// A seq and a label that appear nowhere else in a name, to turn sample names into patterns.
const SAMPLE_SEQ: u64 = 4_242_424_242;
const SAMPLE_LABEL: &str = "sample-label";

/// One kind of file in the drop-box (docs/protocol.md section 2).
struct Kind {
    /// The name pattern, built from the protocol's names module.
    pattern: String,
    /// Who creates it.
    writer: &'static str,
    /// Whether a name is of this kind, by the protocol's own parsers.
    matches: fn(&str) -> bool,
    /// Why a real app's directory need not show it while the test looks, if it need not.
    transient: Option<&'static str>,
}

/// Every kind of file the app and its clients create in the directory.
fn kinds() -> Vec<Kind> {
    let seq = |name: String| name.replace(&SAMPLE_SEQ.to_string(), "<seq>");
    let label = Label::new(SAMPLE_LABEL).expect("a valid label");
    vec![
        Kind {
            pattern: LOCK_FILE.to_owned(),
            writer: "app",
            matches: |n| n == LOCK_FILE,
            transient: None,
        },
        Kind {
            pattern: READY_FILE.to_owned(),
            writer: "app",
            matches: |n| n == READY_FILE,
            transient: None,
        },
        Kind {
            pattern: seq(command_file(SAMPLE_SEQ)),
            writer: "clients",
            matches: |n| parse_command_file(n).is_some(),
            transient: None,
        },
        Kind {
            pattern: seq(taken_file(SAMPLE_SEQ)),
            writer: "app",
            matches: |n| parse_taken_file(n).is_some(),
            transient: None,
        },
        Kind {
            pattern: seq(withdrawn_file(SAMPLE_SEQ)),
            writer: "clients",
            matches: |n| parse_withdrawn_file(n).is_some(),
            transient: Some("the app removes it as soon as it sees it"),
        },
        Kind {
            pattern: seq(response_file(SAMPLE_SEQ)),
            writer: "app",
            matches: |n| parse_response_file(n).is_some(),
            transient: None,
        },
        Kind {
            pattern: format!("{TEMP_PREFIX}*"),
            writer: "app",
            matches: |n| n.starts_with(TEMP_PREFIX),
            transient: Some("it lives while one file is written"),
        },
        Kind {
            pattern: SNAPSHOT_FILE.to_owned(),
            writer: "app",
            matches: |n| n == SNAPSHOT_FILE,
            transient: None,
        },
        Kind {
            pattern: ACCESSIBILITY_FILE.to_owned(),
            writer: "app",
            matches: |n| n == ACCESSIBILITY_FILE,
            transient: None,
        },
        Kind {
            pattern: WINDOWS_FILE.to_owned(),
            writer: "app",
            matches: |n| n == WINDOWS_FILE,
            transient: None,
        },
        Kind {
            pattern: label.file_name().replace(SAMPLE_LABEL, "<label>"),
            writer: "app",
            matches: |n| Label::from_file_name(n).is_some(),
            transient: None,
        },
    ]
}

/// The kind of a name, if it has one.
fn kind_of<'k>(kinds: &'k [Kind], name: &str) -> Option<&'k Kind> {
    kinds.iter().find(|k| (k.matches)(name))
}

const ROOT: NodeId = NodeId(1);
const EMAIL: NodeId = NodeId(2);
const REMEMBER: NodeId = NodeId(3);
const FILES: NodeId = NodeId(4);
const NEWS_LABEL: NodeId = NodeId(5);
const NEWS: NodeId = NodeId(6);
const NOTE: NodeId = NodeId(7);
const GROUP0: NodeId = NodeId(8);
const GROUP1: NodeId = NodeId(9);
/// List items are `ITEM0 + i`.
const ITEM0: u64 = 100;
const ITEMS: u64 = 8;

/// This test's own fixture (a change to a shared fixture must not read as a protocol change): a
/// window holding a focused text field with a value, a checked check box, a 60-pixel list of
/// eight 20-pixel items, three of them visible, and an unnamed check box after its label.
fn fixture() -> TreeUpdate {
    let rect = |x: f64, y: f64, w: f64, h: f64| Rect::new(x, y, x + w, y + h);
    let mut root = Node::new(Role::Window);
    root.set_label("Demo");
    root.set_bounds(rect(0.0, 0.0, 800.0, 600.0));
    root.set_children(vec![EMAIL, REMEMBER, FILES, NEWS_LABEL, NEWS, NOTE]);

    let mut email = Node::new(Role::TextInput);
    email.set_label("Email");
    email.set_value("ada@example.com");
    email.set_bounds(rect(20.0, 20.0, 300.0, 30.0));
    email.add_action(Action::Focus);
    email.add_action(Action::SetValue);

    let mut remember = Node::new(Role::CheckBox);
    remember.set_label("Remember me");
    remember.set_toggled(Toggled::True);
    remember.set_bounds(rect(20.0, 60.0, 150.0, 24.0));
    remember.add_action(Action::Click);

    let mut news_label = Node::new(Role::Label);
    news_label.set_value("Newsletter:");
    news_label.set_bounds(rect(20.0, 100.0, 80.0, 20.0));
    let mut news = Node::new(Role::CheckBox);
    news.set_toggled(Toggled::False);
    news.set_bounds(rect(110.0, 100.0, 20.0, 20.0));
    news.add_action(Action::Click);

    // A static text too long for `-i`'s short lines (egui's labels take clicks).
    let mut note = Node::new(Role::Label);
    note.set_value("Your address is only used to sign in.\nWe never share it.");
    note.set_bounds(rect(20.0, 130.0, 300.0, 40.0));
    note.add_action(Action::Click);

    let mut files = Node::new(Role::List);
    files.set_label("Files");
    files.set_bounds(rect(400.0, 20.0, 300.0, 60.0));
    files.set_clips_children();
    files.add_action(Action::ScrollDown);
    files.set_children((0..ITEMS).map(|i| NodeId(ITEM0 + i)).collect::<Vec<_>>());

    let mut nodes = vec![
        (ROOT, root),
        (EMAIL, email),
        (REMEMBER, remember),
        (FILES, files),
        (NEWS_LABEL, news_label),
        (NEWS, news),
        (NOTE, note),
    ];
    for i in 0..ITEMS {
        let mut item = Node::new(Role::ListItem);
        item.set_label(format!("file-{i}.txt"));
        item.set_bounds(rect(400.0, 20.0 + 20.0 * i as f64, 300.0, 20.0));
        item.add_action(Action::Click);
        nodes.push((NodeId(ITEM0 + i), item));
    }
    TreeUpdate {
        nodes,
        tree: Some(TreeInfo::new(ROOT)),
        tree_id: TreeId::ROOT,
        focus: EMAIL,
    }
}

/// The fixture after a click on the newsletter's checkbox: checked, and two unnamed groups that
/// lay out the two texts each shows.
fn fixture_subscribed() -> TreeUpdate {
    let mut update = fixture();
    for (id, node) in &mut update.nodes {
        match *id {
            NEWS => node.set_toggled(Toggled::True),
            ROOT => node.set_children(vec![
                EMAIL, REMEMBER, FILES, NEWS_LABEL, NEWS, NOTE, GROUP0, GROUP1,
            ]),
            _ => {}
        }
    }
    for (g, id) in [GROUP0, GROUP1].into_iter().enumerate() {
        let y = 180.0 + 40.0 * g as f64;
        let texts: Vec<NodeId> = (0..2).map(|t| NodeId(id.0 * 10 + t)).collect();
        let mut group = Node::new(Role::GenericContainer);
        group.set_bounds(Rect::new(20.0, y, 320.0, y + 40.0));
        group.set_children(texts.clone());
        update.nodes.push((id, group));
        for (t, text_id) in texts.into_iter().enumerate() {
            let mut text = Node::new(Role::Label);
            text.set_value(format!("Issue {}", 2 * g + t + 1));
            let y = y + 20.0 * t as f64;
            text.set_bounds(Rect::new(20.0, y, 120.0, y + 20.0));
            update.nodes.push((text_id, text));
        }
    }
    update
}

/// The first line of `text` that contains `needle`.
#[track_caller]
fn line_with<'t>(text: &'t str, needle: &str) -> &'t str {
    text.lines()
        .find(|l| l.contains(needle))
        .unwrap_or_else(|| panic!("no line with {needle:?} in\n{text}"))
}

/// The ref on a node line (`@eN`).
#[track_caller]
fn ref_on(line: &str) -> &str {
    line.split_whitespace()
        .find(|w| w.starts_with("@e"))
        .unwrap_or_else(|| panic!("no ref on {line:?}"))
}

/// `line` with the number after `key` (`seq=`, `frame=`) replaced by `<seq>`, `<frame>`: these
/// depend on timing (a seq is reused once its files are gone; frames run on a clock), their
/// shape does not.
fn placeholder(line: &str, key: &str) -> String {
    let Some(at) = line.find(key) else {
        return line.to_owned();
    };
    let start = at + key.len();
    let digits = line[start..].bytes().take_while(u8::is_ascii_digit).count();
    let name = key.trim_end_matches(['=', ' ']);
    format!("{}<{name}>{}", &line[..start], &line[start + digits..])
}

/// A response's first line as the app wrote it, read from the file: its seq a placeholder, and
/// an error's message too (its wording is not the protocol's).
fn first_line(text: &str) -> String {
    let line = text.lines().next().unwrap_or_default();
    let mut words: Vec<String> = line.splitn(5, ' ').map(str::to_owned).collect();
    if words.len() > 1 {
        words[1] = "<seq>".into();
    }
    if words.first().map(String::as_str) == Some("error") && words.len() == 5 {
        words[4] = "\"<message>\"".into();
    }
    words.join(" ")
}

/// Adds the names in `dir` to `seen`.
fn look(dir: &Path, seen: &mut BTreeSet<String>) {
    for entry in std::fs::read_dir(dir).expect("the drop-box lists") {
        let entry = entry.expect("a directory entry");
        seen.insert(entry.file_name().to_string_lossy().into_owned());
    }
}

/// Waits until `dir/name` exists, adds what the directory holds then to `seen`.
#[track_caller]
fn look_once_there(dir: &Path, name: &str, seen: &mut BTreeSet<String>) {
    common::eventually(PATIENCE, || dir.join(name).exists().then_some(()))
        .unwrap_or_else(|| panic!("{name} never appeared in {}", dir.display()));
    look(dir, seen);
}

/// Runs frames until the response to `seq` is written; returns it as the app wrote it, after
/// adding what the directory holds then to `seen`, and lets the client read (and remove) it.
#[track_caller]
fn answered(app: &SteppedApp, seq: u64, seen: &mut BTreeSet<String>) -> String {
    let name = response_file(seq);
    let file = app.dir().join(&name);
    let deadline = std::time::Instant::now() + PATIENCE;
    while !file.exists() {
        assert!(
            std::time::Instant::now() < deadline,
            "command {seq} was never answered"
        );
        app.frame(|_| {});
        std::thread::sleep(Duration::from_millis(5));
    }
    look(app.dir(), seen);
    let text = std::fs::read_to_string(&file).expect("the response reads");
    app.client()
        .wait(seq)
        .expect("the client reads the response");
    text
}

/// The golden insta holds for this file, without insta's header; `None` before the first run.
fn stored_golden() -> Option<String> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(GOLDEN);
    let text = std::fs::read_to_string(path).ok()?;
    let body = text.strip_prefix("---\n")?;
    let (_header, contents) = body.split_once("\n---\n")?;
    Some(contents.to_owned())
}

/// Fails with [`BUMP`] when the stored golden is of this version and says something else.
fn check_the_version_moved_with_the_golden(golden: &str) {
    let Some(stored) = stored_golden() else {
        return;
    };
    let version_line = format!("protocol {PROTOCOL_VERSION}");
    let same_version = stored.lines().next() == Some(version_line.as_str());
    assert!(
        !same_version || stored.trim_end() == golden.trim_end(),
        "{BUMP}\n(or, if only this test's fixture changed, remove {GOLDEN} and review the \
         new one)\n\n--- {GOLDEN}\n{stored}\n+++ what the app writes now\n{golden}"
    );
}

#[test]
fn the_golden_of_what_the_protocol_version_covers() {
    let kinds = kinds();
    let app = TestApp::builder()
        .name("protocol")
        .window(window_state("Demo", 1.0))
        .tree(fixture())
        .stepped();
    let dir = app.dir().to_owned();
    let mut seen = BTreeSet::new();

    // The views, through the service thread, before any frame.
    let regular = app.snapshot("--force");
    let interactive = app.snapshot("-i");
    let interactive_full = app.snapshot("-i --bounds --actions");
    let raw = app.snapshot("--raw");
    let windows = app.ok("windows");
    let find = app.ok("find role=textbox");
    let ready = std::fs::read_to_string(dir.join(READY_FILE)).expect("ready.txt reads");
    for artifact in [SNAPSHOT_FILE, ACCESSIBILITY_FILE, WINDOWS_FILE] {
        look_once_there(&dir, artifact, &mut seen);
    }

    // The queue's files: an action taken and waiting for a frame, one command waiting behind
    // it, one withdrawn by a client that gave up before the app took it.
    let remember = ref_on(line_with(&regular, "checkbox \"Remember me\"")).to_owned();
    let click = app
        .client()
        .enqueue_line(&format!("click {remember}"))
        .unwrap();
    look_once_there(&dir, &taken_file(click), &mut seen);
    let get = app.client().enqueue_line("get role=checkbox").unwrap();
    let given_up = app.client().enqueue_line("find role=list").unwrap();
    look_once_there(&dir, &command_file(get), &mut seen);
    assert!(
        queue::withdraw(&dir, given_up).unwrap(),
        "the app took a command queued behind an action no frame has delivered"
    );
    look(&dir, &mut seen);
    let clicked = answered(&app, click, &mut seen);
    answered(&app, get, &mut seen);
    let refused = app.client().enqueue_line("get @e999").unwrap();
    let refused = answered(&app, refused, &mut seen);
    let shot = app.client().enqueue_line("screenshot shot").unwrap();
    answered(&app, shot, &mut seen);
    look(&dir, &mut seen);
    // A settled action's changes: the state change first, the unnamed layout counted. The app
    // changes its tree a few frames after the click, as one that reacts to it does.
    let news = ref_on(line_with(&regular, "label=\"Newsletter:\"")).to_owned();
    let settled = app
        .client()
        .enqueue_line(&format!("click {news} --settle"))
        .unwrap();
    let mut frames = 0;
    let settled = app.frames_until_answered(settled, |frame| {
        frames += 1;
        if frames == 3 {
            frame.tree_update(window_id(), fixture_subscribed());
        }
    });
    let changes = settled
        .body()
        .split_once("\nsettled frame ")
        .map(|(_, rest)| rest);
    let changes = changes
        .and_then(|rest| rest.split_once('\n'))
        .map_or("", |(_, diff)| diff)
        .trim_end()
        .to_owned();
    let journal = app.ok("journal");

    // Every name the app and its clients made is of a listed kind; every lasting kind was seen.
    for name in &seen {
        assert!(
            kind_of(&kinds, name).is_some(),
            "{name} is in the drop-box but of no kind the protocol's names module knows: {BUMP}"
        );
    }
    for kind in &kinds {
        assert!(
            kind.transient.is_some() || seen.iter().any(|n| (kind.matches)(n)),
            "no {} was seen in a real app's directory; seen: {seen:?}",
            kind.pattern
        );
    }

    let mut golden = format!(
        "protocol {PROTOCOL_VERSION}\n\n# the files of the drop-box (docs/protocol.md section 2)\n"
    );
    let width = kinds.iter().map(|k| k.pattern.len()).max().unwrap_or(0);
    for kind in &kinds {
        golden += &format!("{:<width$}  {}\n", kind.pattern, kind.writer);
    }
    golden += "\n# one line of each kind (sections 3, 6, 6.2, 6.3, 6.5)\n";
    let mut view = |name: &str, line: &str| golden += &format!("[{name}]\n{line}\n");
    let ready_head: Vec<&str> = ready.lines().take(2).collect();
    view("ready.txt, its first two lines", &ready_head.join("\n"));
    view("response, ok", &first_line(&clicked));
    view("response, error", &first_line(&refused));
    view(
        "snapshot header",
        &placeholder(line_with(&regular, "snapshot "), "frame="),
    );
    view("window line", line_with(&windows, "window "));
    view("regular node", line_with(&regular, "textbox \"Email\""));
    view(
        "regular node, toggled",
        line_with(&regular, "\"Remember me\""),
    );
    view("regular hint", line_with(&regular, "items below"));
    view("regular node, labelled", line_with(&regular, "label="));
    view("-i node", line_with(&interactive, "textbox \"Email\""));
    view(
        "-i --bounds --actions node",
        line_with(&interactive_full, "textbox \"Email\""),
    );
    view("-i hint", line_with(&interactive, "items below"));
    view("-i node, labelled", line_with(&interactive, "label="));
    view(
        "-i node, a long text's start",
        line_with(&interactive, "value~="),
    );
    view("--raw node, cut off", line_with(&raw, "\"file-7.txt\""));
    view("find", &find.lines().take(2).collect::<Vec<_>>().join("\n"));
    view("a settled action's changes", &changes);
    view("journal head", line_with(&journal, "next "));
    let entry = line_with(&journal, "\"click ");
    view(
        "journal entry",
        &placeholder(&placeholder(entry, "seq="), "frame="),
    );
    view("journal target", line_with(&journal, "target "));

    check_the_version_moved_with_the_golden(&golden);
    insta::assert_snapshot!("protocol", golden);
}

/// docs/protocol.md names the version the crate speaks, in its title and in section 7, and says
/// what changed from the one before.
#[test]
fn the_protocol_document_names_this_version() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("docs/protocol.md");
    let doc = std::fs::read_to_string(path).expect("docs/protocol.md reads");
    let v = PROTOCOL_VERSION;
    for needle in [
        format!("# The drop-box protocol, version {v}\n"),
        format!("`PROTOCOL_VERSION` is an integer, `{v}` here."),
        format!("### Changes from version {}", v - 1),
    ] {
        assert!(
            doc.contains(&needle),
            "docs/protocol.md lacks {needle:?}: PROTOCOL_VERSION is {v}"
        );
    }
}

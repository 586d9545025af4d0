//! What the regular and interactive projections leave out (docs/protocol.md 6.2, "Left out"):
//! text children that repeat their parent's text, and decoration. Measured on a window shaped like
//! egui's: every label's text twice (the label and its text run), buttons named by a label child,
//! resize handles with no name and no action.
use crate::common;
use crate::common::fixture;

use common::{SteppedApp, TestApp, line_of, ref_in, window_state};
use fixture::noisy::{self, Gallery};
use winit_automation_protocol::ErrorCode;

fn gallery(g: &Gallery) -> SteppedApp {
    TestApp::builder()
        .name("noise")
        .window(window_state("Gallery", 1.0))
        .tree(g.update())
        .stepped()
}

/// Lines of a snapshot without its metrics line, header and window line included.
fn lines(text: &str) -> usize {
    text.lines().count()
}

fn line_ending<'a>(text: &'a str, suffix: &str) -> &'a str {
    text.lines()
        .find(|l| l.ends_with(suffix))
        .unwrap_or_else(|| panic!("no line ending with {suffix} in\n{text}"))
}

/// The node id `get` reports for a target.
fn node_id(app: &SteppedApp, target: &str) -> u64 {
    let details = app.ok(&format!("get {target}"));
    details
        .lines()
        .find_map(|l| l.strip_prefix("node_id "))
        .unwrap_or_else(|| panic!("no node_id in {details}"))
        .parse()
        .unwrap()
}

/// Before these rules the regular snapshot of this window was 25 lines (every node but the
/// off-screen handle, and a `[1 item right]` hint for that handle) and the interactive one 10 (the
/// same hint); now 13 and 9.
#[test]
fn repeated_texts_and_decoration_are_left_out_of_the_gallery() {
    let app = gallery(&Gallery::default());
    let regular = app.snapshot("");
    let interactive = app.snapshot("-i");
    let raw = app.snapshot("--raw");
    insta::assert_snapshot!("gallery_regular", regular);
    insta::assert_snapshot!("gallery_interactive", interactive);
    // Raw keeps every node: the header, the window line and the 23 nodes.
    assert_eq!(lines(&raw), 25, "{raw}");
    assert_eq!(lines(&regular), 13, "{regular}");
    assert_eq!(lines(&interactive), 9, "{interactive}");
    assert!(!interactive.contains("item right]"), "{interactive}");

    // Folded: the runs of the heading, of the wrapped paragraph and of the name field, and the
    // Save button's label; left out: the empty run and the resize handles (nor is the one off
    // the window counted by a hint); the wrapper gives its place to its checkbox.
    for gone in [
        "text value=\"Save\"",
        "text value=\"Ada\"",
        "value=\"onto a second row\"",
        "unknown bounds=790",
        "item right]",
    ] {
        assert!(!regular.contains(gone), "{gone} in\n{regular}");
    }
    assert_eq!(
        regular.matches("Welcome to the gallery").count(),
        1,
        "{regular}"
    );
    assert!(
        regular.contains("\n    @e"),
        "the panel keeps its children: {regular}"
    );
    assert!(
        line_of(&regular, "checkbox \"Dark mode\"").starts_with("    @e"),
        "{regular}"
    );
    // Kept: a label that says more than its button, the unnamed panel of several widgets, the
    // clickable title bar, the empty text field.
    for kept in [
        "text value=\"Delete all files\"",
        "  @e4 group bounds=10,110,400x200\n",
        "unknown bounds=0,0,800x24 actions=click",
        "textbox \"Email\" value=\"\"",
    ] {
        assert!(regular.contains(kept), "{kept} not in\n{regular}");
    }
    assert!(
        line_of(&raw, "unknown bounds=900,0").ends_with(" offscreen"),
        "{raw}"
    );
}

#[test]
fn a_folded_child_keeps_the_ref_raw_gave_it_and_shows_again_under_a_new_ref_when_its_text_differs()
{
    let mut g = Gallery::default();
    let app = gallery(&g);
    let raw = app.snapshot("--raw");
    // The run's line: the heading's text without the heading's click.
    let run = ref_in(line_ending(
        &raw,
        "text value=\"Welcome to the gallery\" bounds=10,30,200x20",
    ))
    .to_owned();
    let heading = ref_in(line_of(
        &raw,
        "text value=\"Welcome to the gallery\" bounds=10,30,200x20 actions=click",
    ))
    .to_owned();
    let wrapper = ref_in(line_of(&raw, "group bounds=10,320,200x30")).to_owned();
    let dark = ref_in(line_of(&raw, "checkbox \"Dark mode\"")).to_owned();

    let regular = app.snapshot("");
    assert!(!regular.contains(&format!("{run} ")), "{regular}");
    assert!(!regular.contains(&format!("{wrapper} ")), "{regular}");
    assert_eq!(ref_in(line_of(&regular, "Welcome to the gallery")), heading);
    assert_eq!(ref_in(line_of(&regular, "checkbox \"Dark mode\"")), dark);
    // Left out of a projection, still in the tree: the raw refs resolve to their own nodes.
    assert_eq!(node_id(&app, &run), noisy::HEADING_RUN.0);
    assert_eq!(node_id(&app, &wrapper), noisy::WRAPPER.0);
    assert!(
        app.ok(&format!("get {dark}"))
            .contains(&format!("parent {wrapper}\n"))
    );
    // A scope starts where it is asked to, wrapper or not.
    let scoped = app.snapshot(&format!("--scope {wrapper}"));
    assert!(
        scoped.contains(&format!("\n  {wrapper} group ")),
        "{scoped}"
    );
    assert!(
        scoped.contains(&format!("\n    {dark} checkbox ")),
        "{scoped}"
    );

    // The run now says something else: it is printed, and an unnamed text that shows another
    // text is another node for a ref (a toolkit may give a position's label the same id whatever
    // it shows): a new ref, and the one from raw is stale.
    g.heading_run = Some("Welcome!".into());
    app.open_frame()
        .tree_update(winit::window::WindowId::from(1), g.update());
    let regular = app.snapshot("");
    let line = line_of(&regular, "text value=\"Welcome!\"");
    assert_ne!(ref_in(line), run, "{regular}");
    assert_eq!(app.error_code(&format!("get {run}")), ErrorCode::StaleRef);
    assert!(line.starts_with("      @e"), "under the heading: {regular}");
    assert_eq!(ref_in(line_of(&regular, "Welcome to the gallery")), heading);
}

/// A selector that matches a label and the text run folded into it finds the label alone (the
/// node the snapshot prints), so it is not ambiguous; once the run says something else, it is a
/// match of its own.
#[test]
fn a_text_run_folded_into_its_label_is_not_a_second_match() {
    let mut g = Gallery::default();
    let app = gallery(&g);
    let regular = app.snapshot("");
    let heading = ref_in(line_of(&regular, "Welcome to the gallery")).to_owned();
    let found = app.ok("find text=\"Welcome to the gallery\"");
    assert!(found.starts_with("matches 1\n"), "{found}");
    assert!(found.contains(&format!("\n{heading} text ")), "{found}");
    assert_eq!(
        node_id(&app, "text~=welcome"),
        node_id(&app, &heading),
        "resolves to the heading"
    );

    g.heading_run = Some("Welcome!".into());
    app.open_frame()
        .tree_update(winit::window::WindowId::from(1), g.update());
    let found = app.ok("find text~=welcome");
    assert!(found.starts_with("matches 2\n"), "{found}");
    assert_eq!(node_id(&app, "text=Welcome!"), noisy::HEADING_RUN.0);
}

#[test]
fn a_wrapper_where_depth_stops_is_printed_with_its_hint() {
    let app = gallery(&Gallery::default());
    let text = app.snapshot("--depth 1");
    assert!(
        text.contains("group bounds=10,320,200x30\n      [1 child below --depth 1]\n"),
        "{text}"
    );
    assert!(!text.contains("Dark mode"), "{text}");
}

#[test]
fn a_text_child_that_says_more_than_its_parent_s_text_is_printed() {
    use accesskit::{Action, Node, NodeId, Role, TreeId, TreeInfo, TreeUpdate};
    let label = |name: Option<&str>, value: &str, disabled: bool| {
        let mut n = Node::new(Role::Label);
        if let Some(name) = name {
            n.set_label(name);
        }
        n.set_value(value);
        if disabled {
            n.set_disabled();
        }
        n
    };
    let button = |name: &str, child: u64| {
        let mut n = Node::new(Role::Button);
        n.set_label(name);
        n.add_action(Action::Click);
        n.set_children(vec![NodeId(child)]);
        n
    };
    let mut root = Node::new(Role::Window);
    root.set_label("Odd");
    root.set_children(vec![NodeId(1), NodeId(2), NodeId(3)]);
    let app = TestApp::builder()
        .name("noise")
        .window(window_state("Odd", 1.0))
        .tree(TreeUpdate {
            nodes: vec![
                (NodeId(0), root),
                // Disabled while its button is not: the state is news.
                (NodeId(1), button("Go", 10)),
                (NodeId(10), label(None, "Go", true)),
                // A name and a value that differ: two texts, one of them new.
                (NodeId(2), button("Stop", 20)),
                (NodeId(20), label(Some("Stop"), "Stop now", false)),
                // Disabled like its button: folded.
                (NodeId(3), {
                    let mut b = button("Wait", 30);
                    b.set_disabled();
                    b
                }),
                (NodeId(30), label(None, "Wait", true)),
            ],
            tree: Some(TreeInfo::new(NodeId(0))),
            tree_id: TreeId::ROOT,
            focus: NodeId(0),
        })
        .stepped();
    let regular = app.snapshot("");
    assert!(
        regular.contains(" text value=\"Go\" disabled\n"),
        "{regular}"
    );
    assert!(
        regular.contains(" text \"Stop\" value=\"Stop now\"\n"),
        "{regular}"
    );
    assert!(
        regular.contains(" button \"Wait\" disabled actions=click\n"),
        "{regular}"
    );
    assert_eq!(regular.matches("\"Wait\"").count(), 1, "{regular}");
}

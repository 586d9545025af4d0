//! The tree follows Bevy's change detection: a Bevy app with no window system and no renderer
//! (`MinimalPlugins`, a `Window` entity and nodes with the components bevy_ui leaves on them)
//! is changed one way at a time, and the snapshot a client reads shows each change: a new name,
//! a node hidden and shown, a caption's new text and its spans naming its button, a node moved under another,
//! one despawned, a new one; and frames in which nothing changed leave it as it was.

// A test is a client: it waits for answers, as the render side never does.
#![allow(
    clippy::disallowed_methods,
    clippy::disallowed_types,
    reason = "the test process is a client of the app, not its render side"
)]

use accesskit_bevy::{Node as AccessNode, Role};
use bevy::a11y::AccessibilityNode;
use bevy::prelude::*;
use bevy::ui::{ComputedNode, ComputedStackIndex, UiGlobalTransform};
use bevy::window::PrimaryWindow;
use bevy_winit_automation::AutomationPlugin;
use winit_automation_client::Client;

/// A UI node as bevy_ui leaves it: 100x20 at `x`, painted `stack`th.
fn node(role: Role, label: Option<&str>, x: f32, stack: u32) -> impl Bundle {
    let mut node = AccessNode::new(role);
    if let Some(label) = label {
        node.set_label(label);
    }
    (
        AccessibilityNode::from(node),
        ComputedNode {
            size: Vec2::new(100.0, 20.0),
            ..default()
        },
        UiGlobalTransform::from_xy(x + 50.0, 10.0),
        ComputedStackIndex(stack),
        InheritedVisibility::VISIBLE,
    )
}

/// A text without an accessibility node, as a button's caption is.
fn text(text: &str, x: f32, stack: u32) -> impl Bundle {
    (
        Text::new(text),
        ComputedNode {
            size: Vec2::new(80.0, 16.0),
            ..default()
        },
        UiGlobalTransform::from_xy(x + 40.0, 10.0),
        ComputedStackIndex(stack),
        InheritedVisibility::VISIBLE,
    )
}

/// Runs a few frames, so that what changed is published, and reads the regular snapshot (the
/// service answers it from its mirror, without a frame).
fn snapshot(app: &mut App, client: &Client) -> String {
    for _ in 0..3 {
        app.update();
    }
    let answer = client.send_line("snapshot").expect("an answer");
    assert!(answer.is_ok(), "{}", answer.body());
    answer.body().to_owned()
}

#[test]
fn the_tree_follows_each_change_and_idle_frames_change_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = App::new();
    app.add_plugins(MinimalPlugins);
    app.add_plugins(AutomationPlugin {
        app_name: Some("bevy-tree".into()),
        dir: Some(dir.path().join("box")),
    });
    app.world_mut().spawn((
        Window {
            title: "Tree".into(),
            ..default()
        },
        PrimaryWindow,
    ));
    let save = app
        .world_mut()
        .spawn(node(Role::Button, Some("Save"), 0.0, 1))
        .id();
    let open = app
        .world_mut()
        .spawn(node(Role::Button, Some("Open"), 120.0, 2))
        .id();
    // A button named by its caption.
    let go = app
        .world_mut()
        .spawn(node(Role::Button, None, 240.0, 3))
        .id();
    let caption = app
        .world_mut()
        .spawn((text("Go", 250.0, 4), ChildOf(go)))
        .id();
    app.finish();
    app.cleanup();
    app.update();
    let client = Client::connect(Some(&dir.path().join("box"))).expect("the drop-box is ready");

    let first = snapshot(&mut app, &client);
    for line in [r#"button "Save""#, r#"button "Open""#, r#"button "Go""#] {
        assert!(first.contains(line), "{line}:\n{first}");
    }
    assert!(
        !first.contains(r#"text "Go""#),
        "the caption names its button:\n{first}"
    );

    // Frames in which nothing changed leave the tree as it was.
    for _ in 0..20 {
        app.update();
    }
    let idle = snapshot(&mut app, &client);
    assert!(idle.contains("unchanged since frame"), "{idle}");

    // A node's own change: its name.
    let mut a11y = app.world_mut().get_mut::<AccessibilityNode>(save).unwrap();
    a11y.set_label("Save as");
    let renamed = snapshot(&mut app, &client);
    assert!(renamed.contains(r#"button "Save as""#), "{renamed}");

    // A caption's text renames its button.
    app.world_mut().get_mut::<Text>(caption).unwrap().0 = "Stop".into();
    let captioned = snapshot(&mut app, &client);
    assert!(captioned.contains(r#"button "Stop""#), "{captioned}");

    // A span of the caption reads as part of it, and its change renames the button too.
    let span = app
        .world_mut()
        .spawn((TextSpan::new(" now"), ChildOf(caption)))
        .id();
    let spanned = snapshot(&mut app, &client);
    assert!(spanned.contains(r#"button "Stop now""#), "{spanned}");
    app.world_mut().get_mut::<TextSpan>(span).unwrap().0 = " later".into();
    let respanned = snapshot(&mut app, &client);
    assert!(respanned.contains(r#"button "Stop later""#), "{respanned}");
    app.world_mut().entity_mut(span).despawn();
    let unspanned = snapshot(&mut app, &client);
    assert!(unspanned.contains(r#"button "Stop""#), "{unspanned}");

    // Hidden, the node leaves the tree; shown, it is back.
    app.world_mut()
        .entity_mut(open)
        .insert(InheritedVisibility::HIDDEN);
    let hidden = snapshot(&mut app, &client);
    assert!(!hidden.contains(r#"button "Open""#), "{hidden}");
    app.world_mut()
        .entity_mut(open)
        .insert(InheritedVisibility::VISIBLE);
    let shown = snapshot(&mut app, &client);
    assert!(shown.contains(r#"button "Open""#), "{shown}");

    // Moved under another node, it is that node's child (one level deeper in the snapshot).
    app.world_mut().entity_mut(open).insert(ChildOf(save));
    let moved = snapshot(&mut app, &client);
    let indent = |text: &str, line: &str| {
        text.lines()
            .find(|l| l.contains(line))
            .map(|l| l.len() - l.trim_start().len())
    };
    let (parent, child) = (
        indent(&moved, r#"button "Save as""#),
        indent(&moved, r#"button "Open""#),
    );
    assert!(
        parent.is_some() && child > parent,
        "Open under Save as:\n{moved}"
    );

    // Despawned, it is gone with what hangs under it; a new node joins.
    app.world_mut().entity_mut(save).despawn();
    app.world_mut()
        .spawn(node(Role::Button, Some("Quit"), 360.0, 5));
    let after = snapshot(&mut app, &client);
    assert!(
        !after.contains("Save as") && !after.contains(r#"button "Open""#),
        "{after}"
    );
    assert!(after.contains(r#"button "Quit""#), "{after}");
    assert!(after.contains(r#"button "Stop""#), "{after}");
}

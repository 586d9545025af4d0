//! The scene read from real egui frames: layers, clips, presses.

use super::*;
use accesskit::Role;
use egui::{Event, PointerButton, Pos2, RawInput, Window};

/// Runs one frame of two windows ("A" with a button, then "B") and, with `modal`, a modal.
fn frame(ctx: &Context, events: Vec<Event>, modal: bool) -> FullOutput {
    let raw = RawInput {
        screen_rect: Some(egui::Rect::from_min_size(
            Pos2::ZERO,
            egui::vec2(800.0, 600.0),
        )),
        events,
        ..Default::default()
    };
    let mut output = ctx.run_ui(raw, |ui| {
        let ctx = ui.ctx().clone();
        Window::new("A")
            .default_pos([10.0, 10.0])
            .show(&ctx, |ui| ui.button("Press"));
        Window::new("B")
            .default_pos([300.0, 10.0])
            .show(&ctx, |ui| ui.label("b"));
        if modal {
            egui::Modal::new(Id::unique("modal")).show(&ctx, |ui| ui.label("modal"));
        }
    });
    // Nothing draws here; egui checks that no texture change is dropped unapplied.
    output.textures_delta.clear();
    output
}

fn node(output: &FullOutput, id: NodeId) -> &accesskit::Node {
    let update = output.platform_output.accesskit_update.as_ref().unwrap();
    &update.nodes.iter().find(|(n, _)| *n == id).unwrap().1
}

fn find(output: &FullOutput, role: Role, label: &str) -> NodeId {
    let update = output.platform_output.accesskit_update.as_ref().unwrap();
    update
        .nodes
        .iter()
        .find(|(_, n)| n.role() == role && n.label() == Some(label))
        .unwrap_or_else(|| panic!("no {role:?} {label:?}"))
        .0
}

#[test]
fn windows_are_layers_in_egui_s_order_and_a_modal_is_the_modal_layer() {
    let ctx = Context::default();
    ctx.enable_accesskit();
    let mut scene = EguiScene::new();
    for _ in 0..3 {
        let output = frame(&ctx, vec![], false);
        scene.read(&ctx, &output);
    }
    let output = frame(&ctx, vec![], false);
    scene.read(&ctx, &output);
    let (a, b) = (
        find(&output, Role::Window, "A"),
        find(&output, Role::Window, "B"),
    );
    let order = &scene.layers().order;
    let at = |id| order.iter().position(|n| *n == id);
    assert!(
        at(a).unwrap() < at(b).unwrap(),
        "B was shown last: {order:?}"
    );
    assert_eq!(scene.layers().modal, None);
    // In the plugin's copy, each window's title strip is a title bar named after it.
    let mut update = output.platform_output.accesskit_update.clone().unwrap();
    assert!(!update.nodes.iter().any(|(_, n)| n.role() == Role::TitleBar));
    scene.annotate(&mut update);
    for title in ["A", "B"] {
        assert!(
            update
                .nodes
                .iter()
                .any(|(_, n)| n.role() == Role::TitleBar && n.label() == Some(title)),
            "no title bar {title}"
        );
    }
    // Every window root is clipped to its area.
    for root in [a, b] {
        let clip = scene.layers().clips.iter().find(|(n, _)| *n == root);
        let bounds = node(&output, root).bounds().unwrap();
        assert_eq!(clip.and_then(|c| c.1), Some(bounds), "{root:?}");
    }

    for _ in 0..3 {
        let output = frame(&ctx, vec![], true);
        scene.read(&ctx, &output);
    }
    let modal = scene.layers().modal.expect("the modal layer");
    assert_eq!(
        scene.layers().order.last(),
        Some(&modal),
        "the modal is on top"
    );
}

#[test]
fn a_click_names_the_button_that_took_it_and_a_press_on_nothing_names_none() {
    let ctx = Context::default();
    ctx.enable_accesskit();
    let mut scene = EguiScene::new();
    let mut output = frame(&ctx, vec![], false);
    for _ in 0..3 {
        output = frame(&ctx, vec![], false);
    }
    let button = find(&output, Role::Button, "Press");
    let r = node(&output, button).bounds().unwrap();
    let pos = Pos2::new(((r.x0 + r.x1) / 2.0) as f32, ((r.y0 + r.y1) / 2.0) as f32);
    let press = |pos, pressed| Event::PointerButton {
        pos,
        button: PointerButton::Primary,
        pressed,
        modifiers: Default::default(),
    };
    let click = |pos| {
        vec![
            Event::PointerMoved(pos),
            press(pos, true),
            press(pos, false),
        ]
    };
    let output = frame(&ctx, click(pos), false);
    scene.read(&ctx, &output);
    assert_eq!(scene.pointer_hit(), Some(Some(button)));
    // No press, nothing to say.
    let output = frame(&ctx, vec![], false);
    scene.read(&ctx, &output);
    assert_eq!(scene.pointer_hit(), None);
    // A press on the background, where no widget lies: no node took it.
    let output = frame(&ctx, click(Pos2::new(700.0, 500.0)), false);
    scene.read(&ctx, &output);
    assert_eq!(scene.pointer_hit(), Some(None));
}

/// A press that no widget takes as a click or a drag (on a label that senses neither, in a
/// panel that does not move) names the innermost node egui hovers: the label.
#[test]
fn a_press_no_widget_takes_names_the_innermost_node_egui_hovers() {
    let ctx = Context::default();
    ctx.enable_accesskit();
    let mut scene = EguiScene::new();
    let run = |events: Vec<Event>| {
        let raw = RawInput {
            screen_rect: Some(egui::Rect::from_min_size(
                Pos2::ZERO,
                egui::vec2(400.0, 300.0),
            )),
            events,
            ..Default::default()
        };
        let mut output = ctx.run_ui(raw, |ui| {
            egui::CentralPanel::default().show(ui, |ui| {
                ui.add(egui::Label::new("plain").selectable(false));
                ui.label("other");
            });
        });
        output.textures_delta.clear();
        output
    };
    let mut output = run(vec![]);
    for _ in 0..3 {
        output = run(vec![]);
    }
    let update = output.platform_output.accesskit_update.as_ref().unwrap();
    let (label, r) = update
        .nodes
        .iter()
        .find(|(_, n)| n.role() == Role::Label && n.value() == Some("plain"))
        .map(|(id, n)| (*id, n.bounds().unwrap()))
        .unwrap();
    let at = Pos2::new(((r.x0 + r.x1) / 2.0) as f32, ((r.y0 + r.y1) / 2.0) as f32);
    let press = Event::PointerButton {
        pos: at,
        button: PointerButton::Primary,
        pressed: true,
        modifiers: Default::default(),
    };
    let output = run(vec![Event::PointerMoved(at), press]);
    scene.read(&ctx, &output);
    assert_eq!(scene.pointer_hit(), Some(Some(label)));
}

/// One frame of a window holding a 100 px high scroll area of 50 labels, scrolled by
/// `scroll` points.
fn scrolled(ctx: &Context, scroll: f32) -> FullOutput {
    let raw = RawInput {
        screen_rect: Some(egui::Rect::from_min_size(
            Pos2::ZERO,
            egui::vec2(800.0, 600.0),
        )),
        ..Default::default()
    };
    let mut output = ctx.run_ui(raw, |ui| {
        let ctx = ui.ctx().clone();
        Window::new("Rows")
            .default_pos([10.0, 10.0])
            .show(&ctx, |ui| {
                egui::ScrollArea::vertical()
                    .max_height(100.0)
                    .vertical_scroll_offset(scroll)
                    .show(ui, |ui| {
                        for i in 0..50 {
                            ui.label(format!("Row {i}"));
                        }
                    })
            });
    });
    output.textures_delta.clear();
    output
}

/// The clip in force at `node`: the reported clips of its ancestors, intersected.
fn clip_at(output: &FullOutput, scene: &EguiScene, node: NodeId) -> Option<Rect> {
    let update = output.platform_output.accesskit_update.as_ref().unwrap();
    let parent = |id: NodeId| {
        update
            .nodes
            .iter()
            .find(|(_, n)| n.children().contains(&id))
            .map(|(p, _)| *p)
    };
    let mut clip: Option<Rect> = None;
    let mut at = parent(node);
    while let Some(p) = at {
        if let Some((_, Some(r))) = scene.layers().clips.iter().find(|(n, _)| *n == p) {
            clip = Some(clip.map_or(*r, |c| c.intersect(*r)));
        }
        at = parent(p);
    }
    clip
}

fn inside(r: Rect, clip: Rect) -> bool {
    r.x0 < clip.x1 && clip.x0 < r.x1 && r.y0 < clip.y1 && clip.y0 < r.y1
}

#[test]
fn rows_scrolled_past_a_scroll_area_s_edge_lie_outside_its_clip_and_scrolling_moves_it() {
    let ctx = Context::default();
    ctx.enable_accesskit();
    let mut scene = EguiScene::new();
    let mut output = scrolled(&ctx, 0.0);
    for _ in 0..4 {
        output = scrolled(&ctx, 0.0);
        scene.read(&ctx, &output);
    }
    let row = |output: &FullOutput, i: usize| {
        // egui puts a label's text in its value.
        let text = format!("Row {i}");
        let update = output.platform_output.accesskit_update.as_ref().unwrap();
        let (id, n) = update
            .nodes
            .iter()
            .find(|(_, n)| n.role() == Role::Label && n.value() == Some(&*text))
            .unwrap_or_else(|| panic!("no label {text:?}"));
        (*id, n.bounds().unwrap())
    };
    let (first, first_at) = row(&output, 0);
    let (far, far_at) = row(&output, 40);
    // Unchanged frames give the same value (it is sent again only when it differs).
    let before = scene.layers().clone();
    let again = scrolled(&ctx, 0.0);
    scene.read(&ctx, &again);
    assert_eq!(scene.layers(), &before);
    let clip = clip_at(&output, &scene, first).expect("the rows are clipped");
    assert!(inside(first_at, clip), "{first_at:?} in {clip:?}");
    let far_clip = clip_at(&output, &scene, far).unwrap();
    assert!(!inside(far_at, far_clip), "{far_at:?} outside {far_clip:?}");
    assert!(clip.height() <= 101.0, "the viewport's height: {clip:?}");

    // Scrolled to row 40: the clip is this frame's, not the frame before's.
    for _ in 0..2 {
        output = scrolled(&ctx, far_at.y0 as f32 - first_at.y0 as f32);
        scene.read(&ctx, &output);
    }
    let (_, first_at) = row(&output, 0);
    let (far, far_at) = row(&output, 40);
    let clip = clip_at(&output, &scene, far).unwrap();
    assert!(inside(far_at, clip), "{far_at:?} in {clip:?}");
    assert!(!inside(first_at, clip), "{first_at:?} outside {clip:?}");
}

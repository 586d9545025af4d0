//! Presses through a target's own input proxy (`via`), and what still covers a target.

use accesskit::{Action, Role};

use super::{button, click, trees};
use winit_automation_link::{Bounds, Widget, WidgetStates};
use winit_automation_protocol::{Command, ErrorCode};

/// A label with an unnamed drag source of its bounds on top (egui's `dnd_drag_source`): the
/// handle beside it in the tree, painted after it.
fn label_with_handle(handle_bounds: Bounds) -> Vec<Widget> {
    let list = Widget::new("list", Role::List, "").bounds(Bounds::new(0.0, 0.0, 200.0, 100.0));
    let label = Widget::new("item", Role::Label, "Item A")
        .parent("list")
        .bounds(Bounds::new(10.0, 10.0, 80.0, 20.0));
    let handle = Widget::new("handle", Role::Unknown, "")
        .parent("list")
        .bounds(handle_bounds)
        .action(Action::Focus);
    vec![list, label, handle]
}

#[test]
fn a_target_is_pressed_through_its_own_input_proxy() {
    let mut t = trees(label_with_handle(Bounds::new(10.0, 10.0, 80.0, 20.0)));
    let summary = click(&mut t, "item").unwrap();
    assert!(summary.contains("at 50,20\n"), "{summary}");
    assert!(summary.contains("\nvia @e"), "{summary}");
    assert!(
        summary.contains("unknown"),
        "the handle is named: {summary}"
    );
    // The press the app reports on the handle reaches the target.
    let plan = crate::plan_of(
        &mut t,
        &Command::parse("drag id=item to 300,200").unwrap(),
        false,
    )
    .unwrap()
    .unwrap();
    let check = plan.press.expect("a drag presses");
    assert!(plan.summary.contains("\nvia @e"), "{}", plan.summary);
    assert_eq!(check.accept.len(), 2, "the label and its handle: {check:?}");
}

#[test]
fn a_node_on_top_that_is_not_the_target_s_proxy_still_covers_it() {
    // A handle that does not enclose the label is no proxy: the label's left part is free, and
    // aimed at.
    let mut t = trees(label_with_handle(Bounds::new(40.0, 10.0, 80.0, 20.0)));
    let summary = click(&mut t, "item").unwrap();
    assert!(!summary.contains("via"), "{summary}");
    assert!(summary.contains("visible 37%"), "{summary}");
    // An interactive target under an interactive node of other bounds: covered, not via.
    let mut t = trees(vec![
        button("save", 10.0, 10.0),
        Widget::new("over", Role::Button, "over")
            .bounds(Bounds::new(0.0, 0.0, 200.0, 100.0))
            .action(Action::Click),
    ]);
    assert_eq!(click(&mut t, "save").unwrap_err().code, ErrorCode::Covered);
}

#[test]
fn a_click_catcher_over_the_window_or_a_disabled_handle_is_no_proxy() {
    // An interactive node beside the label's list that encloses the label but is far larger
    // than it and than the list: a click-catcher, not the label's own.
    let mut widgets = label_with_handle(Bounds::new(10.0, 10.0, 80.0, 20.0));
    widgets.pop();
    widgets.push(
        Widget::new("catcher", Role::Unknown, "")
            .bounds(Bounds::new(0.0, 0.0, 400.0, 300.0))
            .action(Action::Click),
    );
    let mut t = trees(widgets);
    let err = click(&mut t, "item").unwrap_err();
    assert_eq!(err.code, ErrorCode::Covered, "{}", err.message);
    // The handle of the label's bounds, disabled: it takes nothing, so it is no proxy.
    let mut widgets = label_with_handle(Bounds::new(10.0, 10.0, 80.0, 20.0));
    let handle = widgets.pop().unwrap().states(WidgetStates {
        disabled: true,
        ..Default::default()
    });
    widgets.push(handle);
    let mut t = trees(widgets);
    assert_eq!(click(&mut t, "item").unwrap_err().code, ErrorCode::Covered);
}

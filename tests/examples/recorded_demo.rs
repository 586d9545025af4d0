//! A session recorded by `winit-automation record --rust`: each command as the harness's
//! call, each change it made as an assertion. Run it with `cargo test`.

use winit_automation_testing::{By, Spawn};

#[test]
fn recorded_session_of_demo() {
    let app = Spawn::example("demo").headless(800, 600).start();
    // recorded by winit-automation record --rust from the app "demo"
    app.get_by_role_and_name("textbox", "Name").fill("Ada");
    let node = app.wait_for(&By::role("textbox").and_name("Name"));
    assert_eq!(node.value(), Some("Ada"));
    assert!(node.is_focused(), "focused: {:?}", node.line());
    app.get_by_role_and_name("checkbox", "Subscribe").click();
    let node = app.wait_for(&By::role("textbox").and_name("Name"));
    assert_eq!(node.value(), Some("Ada"));
    let node = app.wait_for(&By::role("checkbox").and_name("Subscribe"));
    assert!(node.is_focused(), "focused: {:?}", node.line());
    assert!(node.is_checked(), "checked: {:?}", node.line());
    app.get_by_role_and_name("button", "Submit").click();
    let node = app.wait_for(&By::role("checkbox").and_name("Subscribe"));
    assert!(node.is_checked(), "checked: {:?}", node.line());
    let node = app.wait_for(&By::role("button").and_name("Submit"));
    assert!(node.is_focused(), "focused: {:?}", node.line());
    let node = app.wait_for(&By::role("text").and_name("Status"));
    assert_eq!(
        node.value(),
        Some("Submitted: Ada (subscribe yes, volume 50)")
    );
}

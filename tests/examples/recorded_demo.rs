//! A session recorded by `winit-automation record --rust`: each command as the harness's
//! call, each change it made as an expectation. Run it with `cargo test`.

use winit_automation_testing::{By, Has, Spawn};

#[test]
fn recorded_session_of_demo() {
    let app = Spawn::example("demo").headless(800, 600).start();
    // recorded by winit-automation record --rust from the app "demo"
    app.get_by_role_and_name("textbox", "Name").fill("Ada");
    app.expect(
        &By::role("textbox").and_name("Name"),
        &Has::value("Ada").and_state("focused"),
    );
    app.get_by_role_and_name("checkbox", "Subscribe").click();
    app.expect(&By::role("textbox").and_name("Name"), &Has::value("Ada"));
    app.expect(
        &By::role("checkbox").and_name("Subscribe"),
        &Has::state("focused").and_state("checked"),
    );
    app.get_by_role_and_name("button", "Submit").click();
    app.expect(
        &By::role("checkbox").and_name("Subscribe"),
        &Has::state("checked"),
    );
    app.expect(
        &By::role("button").and_name("Submit"),
        &Has::state("focused"),
    );
    app.expect(
        &By::role("text").and_name("Status"),
        &Has::value("Submitted: Ada (subscribe yes, volume 50)"),
    );
}

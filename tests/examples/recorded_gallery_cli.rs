//! A session recorded by `winit-automation record --rust`: each command as the harness's
//! call, each change it made as an expectation. Run it with `cargo test`.

use winit_automation_testing::{By, Has, Spawn};

#[test]
fn recorded_session_of_egui_gallery() {
    let app = Spawn::example("egui_gallery").headless(1280, 800).start();
    // recorded by winit-automation record --rust from the app "egui_gallery"
    app.get_by_role_and_name("checkbox", "Checkbox").click();
    app.expect(
        &By::role("checkbox").and_name("Checkbox"),
        &Has::state("checked"),
    );
    app.expect(
        &By::role("checkbox").and_name_contains("It's easy to"),
        &Has::state("checked"),
    );
    app.get(&By::role("textbox").and_text("Arthur")).fill("Ada");
    app.expect(&By::role("textbox").and_text("Ada"), &Has::state("focused"));
    app.wait_for(&By::role("text").and_text("Ada is 42"));
    app.wait_for(&By::role("text").and_text_contains("CodeExample {\n    name: \"Ada\","));
    app.wait_gone(&By::role("text").and_text("Arthur is 42"));
    app.wait_gone(&By::role("text").and_text_contains("CodeExample {\n    name: \"Arthur\","));
    app.get_by_role_and_name("spinbutton", "years")
        .drag_to((800.0, 353.0));
    app.expect(
        &By::role("spinbutton").and_name("years"),
        &Has::value("53 years"),
    );
    app.wait_for(&By::role("text").and_text("Ada is 53"));
    app.wait_for(
        &By::role("text").and_text_contains("CodeExample {\n    name: \"Ada\",\n    age: 53,"),
    );
    app.wait_gone(&By::role("text").and_text("Ada is 42"));
    app.wait_gone(
        &By::role("text").and_text_contains("CodeExample {\n    name: \"Ada\",\n    age: 42,"),
    );
    // 1 changed node that no selector names alone
    // 1 changed node with no name, label or text, or only laying others out
    app.key("ctrl+a Delete");
    app.wait_for(&By::role("text").and_text(" is 53"));
    app.wait_for(&By::role("text").and_text_contains("CodeExample {\n    name: \"\","));
    app.wait_gone(&By::role("text").and_text("Ada is 53"));
    app.wait_gone(&By::role("text").and_text_contains("CodeExample {\n    name: \"Ada\","));
    // 1 changed node with no name, label or text, or only laying others out
}

//! Secrets in process: an app's widget record with the password role (how an app that publishes
//! widget records marks a field secret), filled and typed into; the app gets the text, and no
//! answer, journal entry or artifact holds it. The every-door test on egui's gallery is
//! tests/examples/secrets.rs.

use crate::common::{Handed, TestApp, all, window_id, window_state};

use accesskit::{Action, Role};
use winit_automation::{Bounds, Widget};

const SECRET: &str = "0pen-Sesame-99";

#[test]
fn a_widget_with_the_password_role_keeps_what_it_is_sent_secret() {
    let app = TestApp::builder()
        .name("secrets")
        .window(window_state("Login", 1.0))
        .start();
    app.feed(|_, frame| {
        frame.widgets(
            window_id(),
            vec![
                Widget::new("pin", Role::PasswordInput, "PIN")
                    .bounds(Bounds::new(10.0, 10.0, 200.0, 30.0))
                    .action(Action::Focus),
                Widget::new("user", Role::TextInput, "User")
                    .bounds(Bounds::new(10.0, 50.0, 200.0, 30.0))
                    .action(Action::Focus),
            ],
        );
    });
    let tree = app.ok("snapshot -i --force");
    assert!(tree.contains("textbox \"PIN\" password"), "{tree}");
    assert!(
        !tree.contains("textbox \"User\" password"),
        "only the password field says so: {tree}"
    );

    app.take_frames();
    let filled = app.ok(&format!("fill id=pin \"{SECRET}\""));
    let typed = app.ok(&format!("type \"{SECRET}\" --secret"));
    let plain = app.ok("fill id=user ada");
    // The app got the text; the answers say only that a secret was typed.
    let texts: Vec<Handed> = all(&app.take_frames())
        .into_iter()
        .filter(|h| matches!(h, Handed::Text(_)))
        .collect();
    assert_eq!(
        texts,
        [
            Handed::Text(SECRET.into()),
            Handed::Text(SECRET.into()),
            Handed::Text("ada".into())
        ]
    );
    for body in [&filled, &typed] {
        assert!(body.contains("\ntyped secret\n"), "{body}");
        assert!(!body.contains(SECRET), "{body}");
    }
    assert!(plain.contains("\ntyped \"ada\"\n"), "{plain}");

    // The journal keeps the placeholder with --secret, and the plain fill as it was.
    let journal = app.ok("journal");
    assert!(!journal.contains(SECRET), "{journal}");
    let kept: Vec<&str> = journal
        .lines()
        .filter(|l| l.contains("$WINIT_AUTOMATION_SECRET"))
        .collect();
    assert_eq!(kept.len(), 2, "{journal}");
    assert!(kept.iter().all(|l| l.contains("--secret")), "{kept:?}");
    assert!(journal.contains(r#""fill id=user \"ada\"""#), "{journal}");
    // Nothing the app's directory holds has it.
    for entry in std::fs::read_dir(app.dir()).unwrap().flatten() {
        let bytes = std::fs::read(entry.path()).unwrap_or_default();
        assert!(
            !bytes.windows(SECRET.len()).any(|w| w == SECRET.as_bytes()),
            "{} holds the secret",
            entry.path().display()
        );
    }
}

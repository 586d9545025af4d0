use super::*;
use winit_automation_protocol::{ArgKind, Arity, Verb};
use winit_automation_testing::script::is_replayed;

const GO: &str = "app.get_by_role_and_name(\"button\", \"Go\")";

#[test]
fn gestures_and_secrets_become_harness_calls() {
    for (line, call) in [
        (
            "click role=button name=Go --modifiers ctrl+shift",
            "click_with(winit_automation_testing::Modifiers::CTRL | winit_automation_testing::Modifiers::SHIFT)",
        ),
        ("click role=button name=Go --hold 800", "long_press(800)"),
        ("click role=button name=Go --double", "double_click()"),
        ("click role=button name=Go --right", "right_click()"),
        ("drag role=button name=Go to 10,20", "drag_to((10.0, 20.0))"),
        (
            "drag role=button name=Go to role=list name=Bin --steps 3 --dwell 0",
            "drag(&app.get_by_role_and_name(\"list\", \"Bin\")).steps(3).dwell(0).perform()",
        ),
        (
            "stroke \"role=button name=Go\" 10,20 30,40",
            "stroke(&[(10.0, 20.0), (30.0, 40.0)])",
        ),
        ("pinch role=button name=Go 2", "pinch(2.0)"),
        (
            "pinch role=button name=Go 1 --pan 0,-100",
            "two_finger_pan(0.0, -100.0)",
        ),
        ("scroll role=button name=Go 0 120", "scroll(0.0, 120.0)"),
        (
            "action role=button name=Go set_value 7",
            "action(\"set_value\", Some(\"7\"))",
        ),
        (
            "screenshot shot --ref \"role=button name=Go\"",
            "screenshot()",
        ),
        (
            "fill role=button name=Go \"$WINIT_AUTOMATION_SECRET\" --secret",
            "fill_secret(&std::env::var(\"WINIT_AUTOMATION_SECRET\").expect(\"set WINIT_AUTOMATION_SECRET to the secret this test types\"))",
        ),
    ] {
        assert_eq!(command(line), format!("{GO}.{call};\n"), "{line}");
    }
    for (line, statement) in [
        (
            "down role=button name=Go",
            format!("app.mouse().down(&{GO});\n"),
        ),
        (
            "move 10,20",
            "app.mouse().move_to((10.0, 20.0));\n".to_owned(),
        ),
        ("up", "app.mouse().up();\n".to_owned()),
        (
            "key ctrl+a Delete",
            "app.key(\"ctrl+a Delete\");\n".to_owned(),
        ),
        ("type \"Ada\"", "app.type_text(\"Ada\");\n".to_owned()),
        ("resize 640 480", "app.resize(640, 480);\n".to_owned()),
        (
            "settle --frames 5 --timeout 1000",
            "app.settle();\n".to_owned(),
        ),
        (
            "wait role=dialog --gone --timeout 10000",
            "app.wait_gone(&By::role(\"dialog\"));\n".to_owned(),
        ),
        ("screenshot", "app.screenshot();\n".to_owned()),
        ("quit", "app.quit();\n".to_owned()),
        ("audit", "app.audit().run();\n".to_owned()),
        (
            "audit role=dialog name=Settings --keyboard --screenshot a11y",
            "app.audit().within(&By::role(\"dialog\").and_name(\"Settings\")).keyboard().marked();\n"
                .to_owned(),
        ),
        ("clock", "app.clock().now();\n".to_owned()),
        ("clock pause", "app.clock().pause();\n".to_owned()),
        ("clock resume", "app.clock().resume();\n".to_owned()),
        ("clock real", "app.clock().set_real();\n".to_owned()),
        (
            "clock virtual --step 40",
            "app.clock().set_virtual(Some(std::time::Duration::from_millis(40)));\n".to_owned(),
        ),
        (
            "clock run 3000",
            "app.clock().run_for(std::time::Duration::from_millis(3000));\n".to_owned(),
        ),
        (
            "clock run 3000 --step 100",
            "app.clock().run_for_in_steps(std::time::Duration::from_millis(3000), std::time::Duration::from_millis(100));\n".to_owned(),
        ),
    ] {
        assert_eq!(command(line), statement, "{line}");
    }
}

/// What the CLI and the MCP server add to every action (`--settle`, `--timeout`) and `--wait`
/// are what the harness's actions do anyway: the call is the same as without them.
#[test]
fn the_front_ends_timing_flags_are_the_harness_s_own() {
    for (line, call) in [
        (
            "click role=button name=Go --settle --timeout 10000",
            format!("{GO}.click();\n"),
        ),
        (
            "click role=button name=Go --settle --frames 5 --wait 2000 --modifiers shift",
            format!("{GO}.click_with(winit_automation_testing::Modifiers::SHIFT);\n"),
        ),
        (
            "fill role=textbox text=\"Arthur\" \"Ada\" --settle --timeout 10000",
            "app.get(&By::role(\"textbox\").and_text(\"Arthur\")).fill(\"Ada\");\n".into(),
        ),
        (
            "key ctrl+a Delete --settle --timeout 10000",
            "app.key(\"ctrl+a Delete\");\n".into(),
        ),
    ] {
        assert_eq!(command(line), call, "{line}");
    }
}

#[test]
fn what_the_harness_has_no_call_for_is_sent_as_written_with_the_reason() {
    for (line, why) in [
        ("click 10,20", "a point"),
        ("click role=button name=Go --middle", "left ones"),
        ("click role=button name=Go --no-scroll", "--no-scroll"),
        ("down role=button name=Go --right", "left button"),
        ("move role=button name=Go --steps 4", "--steps"),
        (
            "scroll role=button name=Go 0 10 --modifiers ctrl",
            "no modifiers",
        ),
        ("pinch role=button name=Go 2 --pan 1,1", "pinches or pans"),
        ("screenshot --refs", "no refs"),
        ("audit 10,20 --keyboard", "not of a point"),
        ("audit @e3", "could not name this ref"),
    ] {
        let written = command(line);
        let expected = format!("app.ok({line:?});\n");
        assert!(written.ends_with(&expected), "{line}: {written}");
        let comment = written.lines().next().unwrap();
        assert!(
            comment.starts_with("// sent as written: ") && comment.contains(why),
            "{line}: {comment}"
        );
    }
}

/// Verbs a recording never turns into a harness call, with the reason. Anything else the recorder
/// keeps (`is_replayed`) must have a call in `call`.
const NO_CALL: &[(&str, &str)] = &[(
    "trace",
    "the journal keeps no trace commands, so a recording never holds one",
)];

/// A line of `verb` with a sample for each required argument, from the verb table.
fn sample(verb: Verb) -> Option<String> {
    let mut line = verb.as_str().to_owned();
    let mut words = Vec::new();
    for arg in verb.spec().args {
        if arg.arity == Arity::Optional && arg.kind != ArgKind::Keyword {
            continue;
        }
        let value = match arg.kind {
            // Quoted where several follow (a stroke's points), else as written.
            ArgKind::Target if arg.arity == Arity::Many => "\"role=button name=Go\"",
            ArgKind::Target | ArgKind::Selector => "role=button name=Go",
            ArgKind::Text => "\"hi\"",
            ArgKind::Number | ArgKind::Size => "2",
            ArgKind::Path => "/tmp/x",
            ArgKind::Keyword => arg.name,
            ArgKind::Word => {
                words.push(arg.field);
                "WORD"
            }
        };
        line.push(' ');
        line.push_str(value);
        if arg.arity == Arity::Many {
            // A second value: a point after a stroke's first target, the same word again.
            line.push(' ');
            line.push_str(if arg.kind == ArgKind::Target {
                "3,4"
            } else {
                value
            });
        }
    }
    if words.is_empty() {
        return Command::parse(&line).is_ok().then_some(line);
    }
    // A word argument (a key chord, an action's name, a label, a sub-command): the first of
    // these the verb takes.
    ["Enter", "click", "shot", "start", "pause"]
        .iter()
        .map(|w| line.replace("WORD", w))
        .find(|l| Command::parse(l).is_ok())
}

#[test]
fn every_replayed_verb_has_a_harness_call_or_a_reason() {
    for &verb in Verb::ALL.iter().filter(|v| is_replayed(**v)) {
        let Some(line) = sample(verb) else {
            panic!("no sample line for `{verb}`: teach `sample` its arguments");
        };
        let command = Command::parse(&line).unwrap();
        match (
            call(&command),
            NO_CALL.iter().find(|(v, _)| *v == verb.as_str()),
        ) {
            (Ok(_), None) | (Err(_), Some(_)) => {}
            (Ok(call), Some(_)) => {
                panic!("`{verb}` has a harness call now ({call}): take it out of NO_CALL")
            }
            (Err(why), None) => panic!(
                "`{line}` becomes no harness call ({why}): give `{verb}` one in \
                 rust_test/calls.rs, or list it in NO_CALL with the reason"
            ),
        }
    }
}

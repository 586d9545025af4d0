//! Unit tests of commands: canonical lines, parsing, and the error code of each kind of bad input.

use super::super::target::{NodeRef, Point, Term};
use super::*;
use crate::ErrorCode;

fn parse(line: &str) -> Command {
    Command::parse(line).unwrap_or_else(|e| panic!("{line}: {e}"))
}

fn code(line: &str) -> ErrorCode {
    Command::parse(line).unwrap_err().code
}

#[test]
fn every_verb_has_a_canonical_line_that_parses_back() {
    for line in [
        "status",
        "windows",
        "snapshot",
        "snapshot -i --depth 3 --scope @e4 --force --diff",
        "snapshot --raw --scope \"role=list name=\\\"Files\\\"\"",
        "snapshot --diff --since 40 --max-bytes 0",
        "snapshot -i --max-bytes 4000",
        "find role=button name=\"Save\"",
        "get @e12",
        "wait name~=\"Done\" --gone --timeout 500",
        "find text~=\"Welcome\" role=text",
        "click text=\"Save as\" nth=1",
        "settle --frames 3 --timeout 1000",
        "clean",
        "clean --keep 2 --dry-run",
        "journal",
        "journal --after 12 --wait 5000",
        "click @e3 --double --right --settle --frames 2 --timeout 900",
        "hover 10,20.5",
        "drag @e1 to 300,40",
        "scroll @e9 0 -120",
        "type \"hello \\\"world\\\"\\n\"",
        "fill @e2 \"a@b.c\" --settle",
        "key ctrl+a Backspace shift+Tab",
        "action @e5 set_value \"42\"",
        "action role=slider increment",
        "focus id=email",
        "resize 800 600",
        "screenshot home --ref @e3",
        "screenshot latest",
        "audit",
        "audit @e4 --keyboard --screenshot found",
        "audit role=dialog name=\"Settings\"",
        "quit",
    ] {
        let command = parse(line);
        assert_eq!(command.to_line(), line, "canonical form of {line}");
        assert_eq!(
            Some(command.verb().as_str()),
            line.split(' ').next(),
            "the verb of {line}"
        );
        assert_eq!(parse(&command.to_line()), command);
    }
}

#[test]
fn flags_may_come_before_positionals_and_aliases_normalise() {
    assert_eq!(parse("click --double @e3").to_line(), "click @e3 --double");
    assert_eq!(parse("snapshot --interactive").to_line(), "snapshot -i");
    assert_eq!(parse("drag @e1 @e2").to_line(), "drag @e1 to @e2");
    assert_eq!(parse("screenshot").to_line(), "screenshot latest");
    assert_eq!(parse("type hello").to_line(), "type \"hello\"");
}

#[test]
fn a_selector_target_ends_at_the_first_token_that_is_not_a_term() {
    let Command::Fill { target, text, .. } = parse("fill role=textbox name=\"E-mail\" x@y.z")
    else {
        panic!()
    };
    assert_eq!(
        target,
        Target::Selector(Selector {
            terms: vec![Term::Role("textbox".into()), Term::Name("E-mail".into())],
            nth: None
        })
    );
    assert_eq!(text, "x@y.z");
    let Command::Drag { from, to, .. } = parse("drag name=A to name=B") else {
        panic!()
    };
    assert_eq!(from.to_string(), "name=\"A\"");
    assert_eq!(to.to_string(), "name=\"B\"");
    let Command::Scroll { target, dx, dy, .. } = parse("scroll 5,5 -1.5 2") else {
        panic!()
    };
    assert_eq!(target, Target::Point(Point { x: 5.0, y: 5.0 }));
    assert_eq!((dx, dy), (-1.5, 2.0));
    assert_eq!(
        parse("get @e7"),
        Command::Get {
            target: Target::Ref(NodeRef(7))
        }
    );
}

#[test]
fn quoted_text_that_looks_like_a_flag_is_text() {
    assert_eq!(
        parse("type \"--settle\""),
        Command::Type {
            text: "--settle".into(),
            secret: false,
            opts: ActOptions::default()
        }
    );
}

#[test]
fn a_secret_is_kept_as_the_placeholder_and_filled_back() {
    let sent = parse("fill @e5 \"Sw0rdf1sh-42\" --secret --settle");
    let kept = sent.redacted(false);
    assert_eq!(
        kept.to_line(),
        "fill @e5 \"$WINIT_AUTOMATION_SECRET\" --secret --settle"
    );
    assert_eq!(parse(&kept.to_line()), kept, "a kept line parses back");
    assert_eq!(kept.clone().with_text("Sw0rdf1sh-42".into()), sent);
    // A password field's text is a secret though the command does not say so.
    let typed = parse("type hunter2");
    assert_eq!(typed.redacted(false), typed, "not a secret by itself");
    assert_eq!(
        typed.redacted(true).to_line(),
        "type \"$WINIT_AUTOMATION_SECRET\" --secret"
    );
    // Commands without text are kept as they are.
    let click = parse("click @e1");
    assert_eq!(click.redacted(true), click);
}

#[test]
fn each_kind_of_bad_input_gets_its_own_code() {
    assert_eq!(code(""), ErrorCode::EmptyCommand);
    assert_eq!(code("   "), ErrorCode::EmptyCommand);
    assert_eq!(code("jump"), ErrorCode::UnknownVerb);
    assert_eq!(code("\"status\""), ErrorCode::UnknownVerb);
    assert_eq!(code("status --force"), ErrorCode::UnknownFlag);
    assert_eq!(code("click"), ErrorCode::MissingArgument);
    assert_eq!(code("snapshot --depth"), ErrorCode::MissingArgument);
    assert_eq!(code("status now"), ErrorCode::UnexpectedArgument);
    assert_eq!(code("type a b"), ErrorCode::UnexpectedArgument);
    assert_eq!(code("resize 0 10"), ErrorCode::BadArgument);
    assert_eq!(code("resize -5 10"), ErrorCode::BadArgument);
    assert_eq!(code("snapshot --depth -1"), ErrorCode::BadArgument);
    assert_eq!(code("snapshot --max-bytes"), ErrorCode::MissingArgument);
    assert_eq!(code("snapshot --max-bytes 4k"), ErrorCode::BadArgument);
    assert_eq!(code("snapshot -i --raw"), ErrorCode::BadArgument);
    assert_eq!(code("click @e1 --frames 2"), ErrorCode::BadArgument);
    assert_eq!(code("click @e1 --settle --settle"), ErrorCode::BadArgument);
    assert_eq!(code("action @e1 fly"), ErrorCode::BadArgument);
    assert_eq!(code("screenshot ../../x"), ErrorCode::BadArgument);
    assert_eq!(code("find @e1"), ErrorCode::BadArgument);
    assert_eq!(code("key hyper+x"), ErrorCode::BadArgument);
    assert_eq!(code("type \"open"), ErrorCode::BadSyntax);
}

#[test]
fn file_bytes_need_utf8_one_line_and_the_size_cap() {
    let max = Command::DEFAULT_MAX_BYTES;
    assert_eq!(Command::parse_bytes(b"status\n", max), Ok(Command::Status));
    assert_eq!(
        Command::parse_bytes(b"status\r\n", max),
        Ok(Command::Status)
    );
    let err = |b: &[u8], max| Command::parse_bytes(b, max).unwrap_err().code;
    assert_eq!(err(b"status\nquit\n", max), ErrorCode::MultipleLines);
    assert_eq!(err(b"type \"\xff\"\n", max), ErrorCode::InvalidUtf8);
    assert_eq!(err(b"status\n", 4), ErrorCode::TooLong);
}

#[test]
fn trace_starts_saves_and_stops_and_refuses_what_belongs_to_the_other() {
    for line in [
        "trace start",
        "trace start --screenshots",
        "trace start --screenshots --replaceable",
        "trace save \"/tmp/a b.html\"",
        "trace stop \"/tmp/t.html\"",
    ] {
        let command = parse(line);
        assert_eq!(command.to_line(), line);
        assert_eq!(parse(&command.to_line()), command);
    }
    assert_eq!(
        parse("trace stop /tmp/t.html"),
        Command::Trace(TraceCommand::Stop {
            file: "/tmp/t.html".into()
        })
    );
    assert_eq!(code("trace"), ErrorCode::MissingArgument);
    assert_eq!(code("trace begin"), ErrorCode::BadArgument);
    assert_eq!(code("trace stop"), ErrorCode::MissingArgument);
    assert_eq!(code("trace stop \"\""), ErrorCode::BadArgument);
    assert_eq!(
        code("trace start /tmp/t.html"),
        ErrorCode::UnexpectedArgument
    );
    let e = Command::parse("trace stop /tmp/t.html --screenshots").unwrap_err();
    assert_eq!(e.code, ErrorCode::BadArgument);
    assert!(e.hint.contains("trace start --screenshots"), "{}", e.hint);
    assert_eq!(
        code("trace save /tmp/t.html --replaceable"),
        ErrorCode::BadArgument
    );
    // A relative file parses (the app refuses it); a client makes it absolute first.
    let relative = parse("trace save out/t.html");
    assert_eq!(
        relative.with_paths_from(std::path::Path::new("/work")),
        Command::Trace(TraceCommand::Save {
            file: "/work/out/t.html".into()
        })
    );
    let absolute = parse("trace stop /tmp/t.html");
    assert_eq!(
        absolute
            .clone()
            .with_paths_from(std::path::Path::new("/work")),
        absolute
    );
}

#[test]
fn audit_takes_one_scope_and_a_label_that_is_a_file_name_part() {
    assert_eq!(
        parse("audit --screenshot a11y"),
        Command::Audit {
            scope: None,
            keyboard: false,
            screenshot: Some(crate::Label::new("a11y").unwrap()),
        }
    );
    assert_eq!(code("audit @e1 @e2"), ErrorCode::UnexpectedArgument);
    assert_eq!(code("audit --screenshot ../x"), ErrorCode::BadArgument);
    assert_eq!(code("audit --screenshot"), ErrorCode::MissingArgument);
}

#[test]
fn clock_reads_switches_and_runs_and_refuses_what_sets_nothing() {
    for line in [
        "clock",
        "clock pause",
        "clock resume",
        "clock real",
        "clock virtual",
        "clock virtual --step 40",
        "clock run 3000",
        "clock run 3000 --step 100",
    ] {
        let command = parse(line);
        assert_eq!(command.to_line(), line);
        assert_eq!(parse(&command.to_line()), command);
    }
    assert_eq!(
        parse("clock --step 100 run 250"),
        Command::Clock(ClockCommand::Run {
            ms: 250,
            step_ms: Some(100)
        })
    );
    assert_eq!(code("clock stop"), ErrorCode::BadArgument);
    assert_eq!(code("clock run"), ErrorCode::MissingArgument);
    assert_eq!(code("clock run 0"), ErrorCode::BadArgument);
    assert_eq!(code("clock run -5"), ErrorCode::BadArgument);
    assert_eq!(code("clock pause 100"), ErrorCode::UnexpectedArgument);
    assert_eq!(code("clock virtual --step 0"), ErrorCode::BadArgument);
    assert_eq!(code("clock virtual --step 60001"), ErrorCode::BadArgument);
    // --step only where it sets something.
    let e = Command::parse("clock pause --step 10").unwrap_err();
    assert_eq!(e.code, ErrorCode::BadArgument);
    assert!(e.hint.contains("clock virtual"), "{}", e.hint);
    assert_eq!(code("clock --step 10"), ErrorCode::BadArgument);
    // A run draws at most 10,000 frames; the hint names a step that fits.
    let e = Command::parse("clock run 200000 --step 1").unwrap_err();
    assert_eq!(e.code, ErrorCode::BadArgument);
    assert!(e.hint.contains("--step 20"), "{}", e.hint);
}

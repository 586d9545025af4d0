//! Properties of the grammar: arbitrary bytes never panic the parser and every rejection is typed;
//! quoting and canonical command lines round-trip; responses and the typed answer lines
//! round-trip.

use proptest::prelude::*;
use winit_automation_protocol::{
    ActOptions, Button, Command, DragEnd, DragMotion, ErrorCode, Failure, FindAnswer,
    JournalAnswer, JournalEntry, JournalTarget, KeyChord, Label, Modifiers, NodeLine, NodeRef,
    NodeValue, Point, Press, Response, ScreenshotAnswer, Selector, Target, Term, Toggled, Verb,
    quote, tokenize,
};

/// The codes a rejected command line can get: the parse codes, never a code of a later stage
/// (`not_found`, `app_error`, ...).
const PARSE_CODES: &[ErrorCode] = &[
    ErrorCode::EmptyCommand,
    ErrorCode::TooLong,
    ErrorCode::InvalidUtf8,
    ErrorCode::MultipleLines,
    ErrorCode::BadSyntax,
    ErrorCode::UnknownVerb,
    ErrorCode::UnknownFlag,
    ErrorCode::MissingArgument,
    ErrorCode::UnexpectedArgument,
    ErrorCode::BadArgument,
];

fn assert_typed(result: Result<Command, winit_automation_protocol::ParseError>) {
    if let Err(e) = result {
        assert!(PARSE_CODES.contains(&e.code), "not a parse code: {e:?}");
        assert!(!e.message.is_empty(), "{e:?}");
        assert!(!e.hint.is_empty(), "{e:?}");
        // Both go on one line of a response: any input they quote is escaped, so no control
        // character (a line break above all) reaches them raw.
        assert!(!e.message.chars().any(char::is_control), "{e:?}");
        assert!(!e.hint.chars().any(char::is_control), "{e:?}");
    }
}

fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-zA-Z0-9 ]{0,12}",
        any::<String>(),
        // Text that looks like what a reader looks for: a ref, a find answer's first line.
        Just("a @e9 b".to_owned()),
        Just("matches 0\n@e1 x".to_owned()),
        prop::collection::vec(
            prop_oneof![
                Just('"'),
                Just('\\'),
                Just('\n'),
                Just('\t'),
                Just('='),
                Just('@'),
                Just('-'),
                Just('\u{0}'),
                Just('\u{2028}'),
                Just('😀'),
                Just(' '),
                Just(','),
            ],
            0..12
        )
        .prop_map(|v| v.into_iter().collect()),
    ]
}

fn point() -> impl Strategy<Value = Point> {
    (-1e6f64..1e6, -1e6f64..1e6).prop_map(|(x, y)| Point { x, y })
}

fn target() -> impl Strategy<Value = Target> {
    let term = prop_oneof![
        // Every role a snapshot can print (`role=` refuses any other).
        prop::sample::select(
            winit_automation_protocol::role_names()
                .iter()
                .map(|r| r.to_string())
                .collect::<Vec<_>>()
        )
        .prop_map(Term::Role),
        text().prop_map(Term::Name),
        text().prop_map(Term::NameContains),
        text().prop_map(Term::Text),
        text().prop_map(Term::TextContains),
        text().prop_map(Term::Label),
        text().prop_map(Term::LabelContains),
        "[A-Za-z0-9_.-]{1,10}".prop_map(Term::Id),
    ];
    prop_oneof![
        (1u64..u64::MAX).prop_map(|n| Target::Ref(NodeRef(n))),
        point().prop_map(Target::Point),
        (
            prop::collection::vec(term, 1..4),
            prop::option::of(0usize..100)
        )
            .prop_map(|(terms, nth)| Target::Selector(Selector { terms, nth })),
    ]
}

/// The options of an action that takes no `--no-scroll` (text, keys, accessibility actions).
fn act() -> impl Strategy<Value = ActOptions> {
    pointer_act().prop_map(|opts| ActOptions {
        no_scroll: false,
        ..opts
    })
}

/// The options of a pointer verb: `ACT` and `--no-scroll`.
fn pointer_act() -> impl Strategy<Value = ActOptions> {
    (
        any::<bool>(),
        prop::option::of(1u32..100),
        prop::option::of(0u64..100_000),
        prop::option::of(0u64..100_000),
        any::<bool>(),
    )
        .prop_map(
            |(settle, frames, timeout_ms, wait_ms, no_scroll)| ActOptions {
                settle,
                frames: if settle { frames } else { None },
                timeout_ms,
                wait_ms,
                no_scroll,
            },
        )
}

fn button(b: u8) -> Button {
    [Button::Left, Button::Right, Button::Middle][usize::from(b % 3)]
}

fn press() -> impl Strategy<Value = Press> {
    prop_oneof![
        Just(Press::Single),
        Just(Press::Double),
        (0u64..10_000).prop_map(Press::Hold),
    ]
}

fn modifiers() -> impl Strategy<Value = Modifiers> {
    any::<[bool; 4]>().prop_map(|[ctrl, alt, shift, meta]| Modifiers {
        ctrl,
        alt,
        shift,
        meta,
    })
}

fn motion() -> impl Strategy<Value = DragMotion> {
    (
        prop::option::of(1u32..100),
        prop::option::of(0u64..5_000),
        prop::option::of(0u64..5_000),
    )
        .prop_map(|(steps, hold_ms, dwell_ms)| DragMotion {
            steps,
            hold_ms,
            dwell_ms,
        })
}

fn command() -> impl Strategy<Value = Command> {
    prop_oneof![
        Just(Command::Status),
        (
            prop::option::of(any::<u64>()),
            prop::option::of(0u64..100_000)
        )
            .prop_map(|(after, timeout_ms)| Command::Journal { after, timeout_ms }),
        (target(), press(), 0..3u8, modifiers(), pointer_act()).prop_map(
            |(target, press, b, modifiers, opts)| Command::Click {
                target,
                button: button(b),
                press,
                modifiers,
                opts,
            }
        ),
        (text(), any::<bool>(), act()).prop_map(|(text, secret, opts)| Command::Type {
            text,
            secret,
            opts
        }),
        (target(), text(), any::<bool>(), act()).prop_map(|(target, text, secret, opts)| {
            Command::Fill {
                target,
                text,
                secret,
                opts,
            }
        }),
        (target(), target(), motion(), modifiers(), pointer_act()).prop_map(
            |(from, to, motion, modifiers, opts)| Command::Drag {
                from,
                to,
                motion,
                modifiers,
                opts,
            }
        ),
        (
            target(),
            -1e4f64..1e4,
            -1e4f64..1e4,
            modifiers(),
            pointer_act()
        )
            .prop_map(|(target, dx, dy, modifiers, opts)| Command::Scroll {
                target,
                dx,
                dy,
                modifiers,
                opts,
            }),
        (
            prop::collection::vec(target(), 2..5),
            0..3u8,
            modifiers(),
            act()
        )
            .prop_map(|(points, b, modifiers, opts)| Command::Stroke {
                points,
                button: button(b),
                modifiers,
                opts,
            }),
        (target(), 0..3u8, modifiers(), pointer_act()).prop_map(|(target, b, modifiers, opts)| {
            Command::Down {
                target,
                button: button(b),
                modifiers,
                opts,
            }
        }),
        (target(), prop::option::of(1u32..50), act()).prop_map(|(target, steps, opts)| {
            Command::Move {
                target,
                steps,
                opts,
            }
        }),
        (0..3u8, act()).prop_map(|(b, opts)| Command::Up {
            button: button(b),
            opts: ActOptions {
                wait_ms: None,
                ..opts
            },
        }),
        (
            target(),
            0.01f64..100.0,
            prop::option::of(point()),
            pointer_act()
        )
            .prop_map(|(target, scale, pan, opts)| Command::Pinch {
                target,
                scale,
                pan,
                opts,
            }),
        (target(), prop::option::of(text()), act()).prop_map(|(target, value, opts)| {
            Command::Action {
                target,
                action: accesskit::Action::SetValue,
                value,
                opts,
            }
        }),
        (
            "[A-Za-z0-9][A-Za-z0-9._-]{0,20}",
            prop::option::of(target()),
            any::<bool>()
        )
            .prop_map(|(l, crop, refs)| {
                Command::Screenshot {
                    label: Label::new(&l).unwrap(),
                    crop,
                    refs,
                }
            }),
        prop::collection::vec(
            "(ctrl\\+|alt\\+|shift\\+)?(Enter|Tab|a|Z|F5|\\+|PageUp)",
            1..4
        )
        .prop_map(|chords| Command::Key {
            chords: chords.iter().map(|c| KeyChord::parse(c).unwrap()).collect(),
            opts: ActOptions::default(),
        }),
    ]
}

/// A number in logical pixels as lines carry them: tenths.
fn logical() -> impl Strategy<Value = f64> {
    (-1_000_000i64..1_000_000).prop_map(|t| t as f64 / 10.0)
}

fn node_line() -> impl Strategy<Value = NodeLine> {
    let value = prop_oneof![
        text().prop_map(NodeValue::Text),
        any::<f64>().prop_map(|v| NodeValue::Number(v.to_string())),
    ];
    let toggled = prop_oneof![
        Just(Toggled::Checked),
        Just(Toggled::Unchecked),
        Just(Toggled::Mixed)
    ];
    (
        (
            1u64..u64::MAX,
            "[a-z]{1,12}",
            text(),
            prop::option::of(value),
            prop::option::of(text()),
        ),
        (
            any::<[bool; 6]>(),
            prop::option::of(toggled),
            prop::option::of(any::<bool>()),
        ),
        prop::option::of([logical(), logical(), logical(), logical()]),
        prop::collection::vec("[a-z_]{1,12}", 0..4),
    )
        .prop_map(
            |((r, role, name, value, label), (flags, toggled, expanded), bounds, actions)| {
                let [password, focused, disabled, selected, hidden, offscreen] = flags;
                NodeLine {
                    name,
                    label,
                    value,
                    password,
                    focused,
                    disabled,
                    toggled,
                    selected,
                    expanded,
                    bounds,
                    actions,
                    hidden,
                    offscreen,
                    ..NodeLine::new(NodeRef(r), role)
                }
            },
        )
}

/// Selectors as the journal names nodes: known roles (`role=` is checked), any text.
fn selector() -> impl Strategy<Value = Selector> {
    let term = prop_oneof![
        prop::sample::select(vec![
            "button", "list", "slider", "textbox", "text", "window"
        ])
        .prop_map(|r| Term::Role(r.to_owned())),
        text().prop_map(Term::Name),
        text().prop_map(Term::NameContains),
        text().prop_map(Term::Text),
        text().prop_map(Term::TextContains),
        "[A-Za-z0-9_.-]{1,10}".prop_map(Term::Id),
    ];
    (
        prop::collection::vec(term, 1..4),
        prop::option::of(0usize..100),
    )
        .prop_map(|(terms, nth)| Selector { terms, nth })
}

fn journal_answer() -> impl Strategy<Value = JournalAnswer> {
    let end = prop::option::of(prop_oneof![Just(DragEnd::From), Just(DragEnd::To)]);
    let target = (end, selector()).prop_map(|(end, selector)| JournalTarget { end, selector });
    let entry = (
        any::<u64>(),
        any::<u64>(),
        prop::option::of("[a-z_]{1,16}"),
        prop::option::of(any::<u64>()),
        text(),
        prop::collection::vec(target, 0..3),
    )
        .prop_map(|(index, seq, code, frame, line, targets)| JournalEntry {
            index,
            seq,
            code,
            frame,
            line,
            targets,
        });
    (
        any::<u64>(),
        prop::option::of(any::<u64>()),
        prop::collection::vec(entry, 0..5),
    )
        .prop_map(|(next, lost, entries)| JournalAnswer {
            next,
            lost,
            entries,
        })
}

fn screenshot_answer() -> impl Strategy<Value = ScreenshotAnswer> {
    (
        any::<u64>(),
        "[A-Za-z0-9][A-Za-z0-9._-]{0,20}",
        prop::option::of(any::<(u32, u32)>()),
        prop::option::of(any::<f64>().prop_filter("finite", |v| v.is_finite())),
        prop::option::of(any::<u64>()),
    )
        .prop_map(|(frame, label, size, scale, bytes)| ScreenshotAnswer {
            frame,
            file: Label::new(&label).unwrap(),
            size,
            scale,
            bytes,
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn find_answers_round_trip(matches in prop::collection::vec(node_line(), 0..6)) {
        let answer = FindAnswer::new(matches);
        let written = answer.to_string();
        let parsed = FindAnswer::parse(&written).map_err(|e| TestCaseError::fail(format!("{written}: {e}")))?;
        prop_assert_eq!(&parsed, &answer);
        // The same lines held as text are written byte for byte the same.
        let as_text = FindAnswer::new(answer.matches.iter().map(ToString::to_string).collect::<Vec<_>>());
        prop_assert_eq!(as_text.to_string(), written);
    }

    #[test]
    fn node_lines_round_trip(line in node_line()) {
        let written = line.to_string();
        prop_assert!(!written.contains('\n'));
        prop_assert_eq!(NodeLine::parse(&written), Some(line.clone()), "line: {}", written);
        // Indented, as snapshots print it.
        prop_assert_eq!(NodeLine::parse(&format!("    {written}")), Some(line));
    }

    #[test]
    fn journal_answers_round_trip(answer in journal_answer()) {
        let written = answer.to_string();
        let parsed = JournalAnswer::parse(&written).map_err(|e| TestCaseError::fail(format!("{written}: {e}")))?;
        prop_assert_eq!(&parsed, &answer);
        for entry in &answer.entries {
            prop_assert_eq!(&JournalEntry::parse(&entry.to_string()).unwrap(), entry);
        }
    }

    #[test]
    fn screenshot_answers_round_trip(answer in screenshot_answer()) {
        let written = answer.to_string();
        let parsed = ScreenshotAnswer::parse(&written).map_err(|e| TestCaseError::fail(format!("{written}: {e}")))?;
        prop_assert_eq!(parsed, answer);
    }

    #[test]
    fn arbitrary_lines_never_panic_the_line_parsers(line in any::<String>(), body in "((next|lost|entry|target|frame|file|size|scale|bytes|@e1)[ -~]{0,12}\n){0,4}") {
        let _ = NodeLine::parse(&line);
        let _ = JournalAnswer::parse(&line);
        let _ = ScreenshotAnswer::parse(&line);
        let _ = JournalAnswer::parse(&body);
        let _ = ScreenshotAnswer::parse(&body);
        let _ = NodeLine::all(&body);
    }

    #[test]
    fn arbitrary_bytes_never_panic_and_every_rejection_is_typed(bytes in prop::collection::vec(any::<u8>(), 0..300)) {
        assert_typed(Command::parse_bytes(&bytes, 256));
    }

    #[test]
    fn lines_of_protocol_like_tokens_never_panic(
        words in prop::collection::vec(prop_oneof![
            Just("click".to_owned()), Just("snapshot".to_owned()), Just("--settle".to_owned()),
            Just("--depth".to_owned()), Just("--scope".to_owned()), Just("-i".to_owned()),
            Just("to".to_owned()), Just("@e1".to_owned()), Just("1,2".to_owned()),
            Just("name=".to_owned()), Just("role=x".to_owned()), Just("nth=3".to_owned()),
            Just("\"".to_owned()), Just("\\u".to_owned()), "[ -~]{0,6}",
        ], 0..8)
    ) {
        let line = words.join(" ");
        assert_typed(Command::parse(&line));
        for verb in Verb::ALL {
            assert_typed(Command::parse(&format!("{} {line}", verb.as_str())));
        }
    }

    #[test]
    fn quoting_round_trips_any_text(s in any::<String>()) {
        let quoted = quote(&s);
        prop_assert!(!quoted.chars().any(char::is_control));
        let tokens = tokenize(&quoted).unwrap();
        prop_assert_eq!(tokens.len(), 1);
        prop_assert_eq!(tokens[0].text(), s);
    }

    #[test]
    fn canonical_lines_parse_back_to_the_same_command(c in command()) {
        let line = c.to_line();
        prop_assert!(!line.contains('\n'));
        let parsed = Command::parse(&line).map_err(|e| TestCaseError::fail(format!("{line}: {e}")))?;
        prop_assert_eq!(&parsed, &c, "line: {}", line);
        prop_assert_eq!(parsed.to_line(), line);
    }

    #[test]
    fn responses_round_trip(seq in any::<u64>(), message in any::<String>(), hint in any::<String>(), body in "([ -~]{0,10}\n){0,3}") {
        let r = Response::error(seq, Some(Verb::Click), Failure::new(ErrorCode::StaleRef, message, hint).with_body(body.clone()));
        prop_assert_eq!(Response::parse(&r.to_text()).unwrap(), r);
        let ok = Response::ok(seq, None, body);
        prop_assert_eq!(Response::parse(&ok.to_text()).unwrap(), ok);
    }
}

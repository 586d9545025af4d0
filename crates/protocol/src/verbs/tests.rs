//! The verb table's own checks: usage lines, unique names.

use super::*;

#[test]
fn usage_lines_come_from_the_table() {
    assert_eq!(usage(Verb::Status), "status");
    assert_eq!(
        usage(Verb::Snapshot),
        "snapshot [-i|--raw] [--depth N] [--scope TARGET] [--force] [--diff] [--bounds] [--actions] [--since FRAME] [--max-bytes N]"
    );
    assert_eq!(
        usage(Verb::Click),
        "click TARGET [--double|--hold MS] [--right|--middle] [--modifiers MODS] [--settle [--frames K]] [--timeout MS] [--wait MS] [--no-scroll]"
    );
    assert_eq!(
        usage(Verb::Scroll),
        "scroll TARGET DX DY [--modifiers MODS] [--settle [--frames K]] [--timeout MS] [--wait MS] [--no-scroll]"
    );
    assert_eq!(
        usage(Verb::Screenshot),
        "screenshot [LABEL] [--ref TARGET] [--refs]"
    );
    assert_eq!(usage(Verb::Clean), "clean [--keep N] [--dry-run]");
    assert_eq!(usage(Verb::Journal), "journal [--after N] [--wait MS]");
    assert_eq!(
        usage(Verb::Trace),
        "trace WHAT [FILE] [--screenshots] [--replaceable]"
    );
    assert_eq!(
        usage(Verb::Drag),
        "drag FROM [to] TO [--steps N] [--hold MS] [--dwell MS] [--modifiers MODS] [--settle [--frames K]] [--timeout MS] [--wait MS] [--no-scroll]"
    );
    assert_eq!(
        usage(Verb::Stroke),
        "stroke POINT [POINT...] [--right|--middle] [--modifiers MODS] [--settle [--frames K]] [--timeout MS] [--wait MS]"
    );
    assert_eq!(
        usage(Verb::Up),
        "up [--right|--middle] [--settle [--frames K]] [--timeout MS]"
    );
    assert_eq!(
        usage(Verb::Pinch),
        "pinch TARGET SCALE [--pan DX,DY] [--settle [--frames K]] [--timeout MS] [--wait MS] [--no-scroll]"
    );
    assert_eq!(
        usage(Verb::Key),
        "key CHORD [CHORD...] [--settle [--frames K]] [--timeout MS] [--wait MS]"
    );
    assert_eq!(
        usage(Verb::Action),
        "action TARGET NAME [VALUE] [--settle [--frames K]] [--timeout MS] [--wait MS]"
    );
}

#[test]
fn names_and_aliases_are_unique_within_a_verb() {
    for &verb in Verb::ALL {
        let names: Vec<&str> = verb
            .flags()
            .flat_map(|f| [Some(f.name), f.alias])
            .flatten()
            .collect();
        for (i, n) in names.iter().enumerate() {
            assert!(!names[..i].contains(n), "{verb} lists {n} twice");
        }
        assert_eq!(Verb::parse(verb.as_str()), Some(verb));
    }
}

#[test]
fn every_group_holds_a_verb_and_core_holds_looking_acting_and_waiting() {
    for &group in Group::ALL {
        assert!(group.verbs().next().is_some(), "{group} holds no verb");
        assert_eq!(Group::parse(group.as_str()), Some(group));
    }
    let core: Vec<&str> = Group::Core.verbs().map(Verb::as_str).collect();
    assert_eq!(
        core,
        [
            "status",
            "snapshot",
            "find",
            "get",
            "wait",
            "click",
            "drag",
            "scroll",
            "type",
            "fill",
            "key",
            "action",
            "screenshot"
        ]
    );
    assert_eq!(Group::parse("all"), None);
}

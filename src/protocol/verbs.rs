//! The verb table: every verb's name, side, arguments and flags, in one place.
//!
//! Parsing (which flags a verb takes, which exclude each other, which need another), the usage
//! line in errors and the order of flags in the canonical form all read this table; `command.rs`
//! only says how each verb's positional arguments map to its `Command` variant.

use std::fmt;

/// A flag, without its dashes: `settle`, `frames`, `i`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Flag {
    /// The canonical name.
    pub name: &'static str,
    /// The placeholder of its value (`K`, `MS`, `TARGET`), or `None` for a switch.
    pub value: Option<&'static str>,
    /// Another name that means the same (`interactive` for `i`); never written back.
    pub alias: Option<&'static str>,
}

impl Flag {
    const fn switch(name: &'static str) -> Flag {
        Flag {
            name,
            value: None,
            alias: None,
        }
    }

    const fn valued(name: &'static str, value: &'static str) -> Flag {
        Flag {
            name,
            value: Some(value),
            alias: None,
        }
    }

    /// Whether `name` (without dashes) names this flag.
    pub fn is(&self, name: &str) -> bool {
        self.name == name || self.alias == Some(name)
    }
}

/// `-x` for a one-letter flag, `--name` otherwise.
pub(crate) fn dashed(name: &str) -> String {
    if name.len() == 1 {
        format!("-{name}")
    } else {
        format!("--{name}")
    }
}

/// How a verb's flags relate, which is also how its usage line shows them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FlagRule {
    /// A flag on its own: `[--force]`, `[--depth N]`.
    Free(Flag),
    /// Two flags that exclude each other, with the hint given when both are present:
    /// `[--right|--middle]`.
    Either(Flag, Flag, &'static str),
    /// A flag and one that only applies with it: `[--settle [--frames K]]`.
    Needs(Flag, Flag),
}

impl FlagRule {
    /// The flags of the rule, in canonical order.
    pub fn flags(&self) -> impl Iterator<Item = Flag> {
        let (a, b) = match *self {
            FlagRule::Free(a) => (a, None),
            FlagRule::Either(a, b, _) | FlagRule::Needs(a, b) => (a, Some(b)),
        };
        std::iter::once(a).chain(b)
    }
}

const SETTLE: Flag = Flag::switch("settle");
const FRAMES: Flag = Flag::valued("frames", "K");
const TIMEOUT: Flag = Flag::valued("timeout", "MS");

/// The flags every app-side action takes (`ACT` in docs/protocol.md).
const ACT: &[FlagRule] = &[FlagRule::Needs(SETTLE, FRAMES), FlagRule::Free(TIMEOUT)];

/// Who answers a verb.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// The service thread, from its mirror of the latest published frame, without waiting for a frame.
    Service,
    /// The render thread, at a frame boundary; answered after that frame is published.
    App,
}

/// One row of the verb table.
#[derive(Debug, Clone, Copy)]
pub struct VerbSpec {
    /// The verb as written on the wire.
    pub name: &'static str,
    /// Who answers it.
    pub side: Side,
    /// Its positional arguments as the usage line shows them (`TARGET DX DY`).
    pub args: &'static str,
    /// Its flags, in canonical order.
    pub flags: &'static [FlagRule],
}

macro_rules! verbs {
    ($($variant:ident => $name:literal, $side:ident, $args:literal, $flags:expr;)*) => {
        /// The verb of a command.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        #[allow(missing_docs)]
        pub enum Verb { $($variant,)* }

        impl Verb {
            /// Every verb of this protocol version, in documentation order.
            pub const ALL: &'static [Verb] = &[$(Verb::$variant,)*];

            /// The verb's row of the table.
            pub fn spec(self) -> &'static VerbSpec {
                match self {
                    $(Verb::$variant => const {
                        &VerbSpec {
                            name: $name,
                            side: Side::$side,
                            args: $args,
                            flags: $flags,
                        }
                    },)*
                }
            }
        }

        impl super::Command {
            /// The verb of this command.
            pub fn verb(&self) -> Verb {
                match self { $(super::Command::$variant { .. } => Verb::$variant,)* }
            }
        }
    };
}

verbs! {
    Status => "status", Service, "", &[];
    Windows => "windows", Service, "", &[];
    Snapshot => "snapshot", Service, "", &[
        FlagRule::Either(
            Flag { name: "i", value: None, alias: Some("interactive") },
            Flag::switch("raw"),
            "pick one projection: regular (default), -i or --raw",
        ),
        FlagRule::Free(Flag::valued("depth", "N")),
        FlagRule::Free(Flag::valued("scope", "TARGET")),
        FlagRule::Free(Flag::switch("force")),
        FlagRule::Free(Flag::switch("diff")),
        // Only -i leaves bounds and actions out; with the other projections these change nothing.
        FlagRule::Free(Flag::switch("bounds")),
        FlagRule::Free(Flag::switch("actions")),
        FlagRule::Free(Flag::valued("since", "FRAME")),
    ];
    Find => "find", Service, "SELECTOR", &[];
    Get => "get", Service, "TARGET", &[];
    Wait => "wait", Service, "SELECTOR", &[FlagRule::Free(Flag::switch("gone")), FlagRule::Free(TIMEOUT)];
    Settle => "settle", Service, "", &[FlagRule::Free(FRAMES), FlagRule::Free(TIMEOUT)];
    Clean => "clean", Service, "", &[
        FlagRule::Free(Flag::valued("keep", "N")),
        FlagRule::Free(Flag::switch("dry-run")),
    ];
    Journal => "journal", Service, "", &[
        FlagRule::Free(Flag::valued("after", "N")),
        FlagRule::Free(TIMEOUT),
    ];
    Click => "click", App, "TARGET", &[
        FlagRule::Free(Flag::switch("double")),
        FlagRule::Either(Flag::switch("right"), Flag::switch("middle"), "pick one button"),
        FlagRule::Needs(SETTLE, FRAMES),
        FlagRule::Free(TIMEOUT),
    ];
    Hover => "hover", App, "TARGET", ACT;
    Drag => "drag", App, "FROM [to] TO", ACT;
    Scroll => "scroll", App, "TARGET DX DY", ACT;
    Type => "type", App, "TEXT", ACT;
    Fill => "fill", App, "TARGET TEXT", ACT;
    Key => "key", App, "CHORD [CHORD...]", ACT;
    Action => "action", App, "TARGET NAME [VALUE]", ACT;
    Focus => "focus", App, "TARGET", ACT;
    Resize => "resize", App, "WIDTH HEIGHT", ACT;
    Screenshot => "screenshot", App, "[LABEL]", &[FlagRule::Free(Flag::valued("ref", "TARGET"))];
    Quit => "quit", App, "", &[];
}

impl Verb {
    /// The verb as written on the wire.
    pub fn as_str(self) -> &'static str {
        self.spec().name
    }

    /// Which side carries the verb out.
    pub fn side(self) -> Side {
        self.spec().side
    }

    /// Parses a verb.
    pub fn parse(s: &str) -> Option<Verb> {
        Verb::ALL.iter().copied().find(|v| v.as_str() == s)
    }

    /// Every flag the verb takes, in canonical order.
    pub fn flags(self) -> impl Iterator<Item = Flag> {
        self.spec().flags.iter().flat_map(FlagRule::flags)
    }

    /// The flag `name` (without dashes, an alias too) names, if the verb takes it.
    pub fn flag(self, name: &str) -> Option<Flag> {
        self.flags().find(|f| f.is(name))
    }
}

impl fmt::Display for Verb {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

fn flag_usage(flag: Flag) -> String {
    match flag.value {
        Some(value) => format!("{} {value}", dashed(flag.name)),
        None => dashed(flag.name),
    }
}

/// The usage line of a verb, as docs/protocol.md states it.
pub fn usage(verb: Verb) -> String {
    let spec = verb.spec();
    let mut line = spec.name.to_owned();
    if !spec.args.is_empty() {
        line.push(' ');
        line.push_str(spec.args);
    }
    for rule in spec.flags {
        line.push_str(" [");
        match *rule {
            FlagRule::Free(a) => line.push_str(&flag_usage(a)),
            FlagRule::Either(a, b, _) => {
                line.push_str(&flag_usage(a));
                line.push('|');
                line.push_str(&flag_usage(b));
            }
            FlagRule::Needs(a, b) => {
                line.push_str(&flag_usage(a));
                line.push_str(" [");
                line.push_str(&flag_usage(b));
                line.push(']');
            }
        }
        line.push(']');
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usage_lines_come_from_the_table() {
        assert_eq!(usage(Verb::Status), "status");
        assert_eq!(
            usage(Verb::Snapshot),
            "snapshot [-i|--raw] [--depth N] [--scope TARGET] [--force] [--diff] [--bounds] [--actions] [--since FRAME]"
        );
        assert_eq!(
            usage(Verb::Click),
            "click TARGET [--double] [--right|--middle] [--settle [--frames K]] [--timeout MS]"
        );
        assert_eq!(
            usage(Verb::Scroll),
            "scroll TARGET DX DY [--settle [--frames K]] [--timeout MS]"
        );
        assert_eq!(usage(Verb::Screenshot), "screenshot [LABEL] [--ref TARGET]");
        assert_eq!(usage(Verb::Clean), "clean [--keep N] [--dry-run]");
        assert_eq!(usage(Verb::Journal), "journal [--after N] [--timeout MS]");
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
}

//! The parts a row of the verb table is made of: flags ([`Flag`], how they relate:
//! [`FlagRule`]) and positional arguments ([`Arg`], what they hold and how many). The table itself
//! is `verbs.rs`.

/// What a flag's value is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ValueKind {
    /// A whole number, 0 or more (`--frames K`, `--timeout MS`).
    Count,
    /// One target (`--scope TARGET`, `--ref TARGET`): a ref, a point or a quoted selector.
    Target,
    /// One word of the verb's own vocabulary (`--modifiers ctrl+shift`).
    Word,
}

/// A flag, without its dashes: `settle`, `frames`, `i`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Flag {
    /// The canonical name.
    pub name: &'static str,
    /// The placeholder of its value (`K`, `MS`, `TARGET`) and what the value is, or `None` for a
    /// switch.
    pub value: Option<(&'static str, ValueKind)>,
    /// Another name that means the same (`interactive` for `i`); never written back. Front ends that
    /// need a word, such as the MCP server's argument names, use it.
    pub alias: Option<&'static str>,
    /// What it does, one sentence: the CLI's `--help` and the MCP argument's description.
    pub help: &'static str,
    /// For a switch: on unless an agent says otherwise. The MCP server (whose callers act, then
    /// look) turns it on when the argument is absent; every other front end leaves it off.
    pub for_agents: bool,
}

impl Flag {
    pub(super) const fn switch(name: &'static str, help: &'static str) -> Flag {
        Flag {
            name,
            value: None,
            alias: None,
            help,
            for_agents: false,
        }
    }

    pub(super) const fn count(
        name: &'static str,
        placeholder: &'static str,
        help: &'static str,
    ) -> Flag {
        Flag {
            value: Some((placeholder, ValueKind::Count)),
            ..Flag::switch(name, help)
        }
    }

    pub(super) const fn worded(
        name: &'static str,
        placeholder: &'static str,
        help: &'static str,
    ) -> Flag {
        Flag {
            value: Some((placeholder, ValueKind::Word)),
            ..Flag::switch(name, help)
        }
    }

    pub(super) const fn target(name: &'static str, help: &'static str) -> Flag {
        Flag {
            value: Some(("TARGET", ValueKind::Target)),
            ..Flag::switch(name, help)
        }
    }

    pub(super) const fn alias(self, alias: &'static str) -> Flag {
        Flag {
            alias: Some(alias),
            ..self
        }
    }

    pub(super) const fn on_for_agents(self) -> Flag {
        Flag {
            for_agents: true,
            ..self
        }
    }

    /// Whether `name` (without dashes) names this flag.
    pub fn is(&self, name: &str) -> bool {
        self.name == name || self.alias == Some(name)
    }

    /// The flag's word where a front end needs one: its alias when its name is one letter
    /// (`interactive` for `i`), else its name (`dry-run`).
    pub fn word(&self) -> &'static str {
        match self.alias {
            Some(alias) if self.name.len() == 1 => alias,
            _ => self.name,
        }
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

/// What a positional argument holds, which says how every front end reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArgKind {
    /// A ref (`@e12`), a point (`120,48`) or selector terms: protocol text, read with the
    /// protocol's lexer in every front end.
    Target,
    /// Selector terms only.
    Selector,
    /// Free text, taken exactly as given (quoted on the wire).
    Text,
    /// A finite decimal number.
    Number,
    /// A whole number, 1 or more.
    Size,
    /// One word: an action name, a key chord, a label.
    Word,
    /// The literal word the argument is named after (`to` in `drag`), optional.
    Keyword,
    /// A file path, absolute on the wire. The client library (and so the CLI, the MCP server,
    /// the harness and scripts) makes a relative one absolute against its working directory.
    Path,
}

/// How many values an argument takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Arity {
    /// Exactly one.
    One,
    /// None or one.
    Optional,
    /// One or more.
    Many,
}

/// A positional argument of a verb.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Arg {
    /// Its name in usage lines: `TARGET`, `DX`, `to`.
    pub name: &'static str,
    /// Its name where a front end needs a word (the MCP server's argument names): `target`, `dx`.
    pub field: &'static str,
    /// What it holds.
    pub kind: ArgKind,
    /// How many values it takes.
    pub arity: Arity,
    /// What it is, one sentence.
    pub help: &'static str,
}

impl Arg {
    pub(super) const fn one(
        name: &'static str,
        field: &'static str,
        kind: ArgKind,
        help: &'static str,
    ) -> Arg {
        Arg {
            name,
            field,
            kind,
            arity: Arity::One,
            help,
        }
    }

    pub(super) const fn optional(self) -> Arg {
        Arg {
            arity: Arity::Optional,
            ..self
        }
    }

    pub(super) const fn many(self) -> Arg {
        Arg {
            arity: Arity::Many,
            ..self
        }
    }

    /// How the usage line shows it: `TARGET`, `[LABEL]`, `CHORD [CHORD...]`.
    pub fn usage(&self) -> String {
        match self.arity {
            Arity::One => self.name.to_owned(),
            Arity::Optional => format!("[{}]", self.name),
            Arity::Many => format!("{0} [{0}...]", self.name),
        }
    }
}

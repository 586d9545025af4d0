//! Key chords such as `Enter`, `ctrl+a`, `shift+Tab`, `ctrl+shift+F5`.
//!
//! Modifier and key names are case-insensitive on input and written in one canonical spelling:
//! modifiers in the order `ctrl`, `alt`, `shift`, `meta`, named keys in the W3C `KeyboardEvent.key`
//! spelling (`ArrowUp`, `PageDown`), single characters as themselves.

use std::fmt;

use super::{ErrorCode, ParseError};

/// Modifier keys held during a chord.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Modifiers {
    /// Control (`ctrl`, `control`).
    pub ctrl: bool,
    /// Alt (`alt`, `option`).
    pub alt: bool,
    /// Shift.
    pub shift: bool,
    /// The logo key (`meta`, `super`, `cmd`, `win`).
    pub meta: bool,
}

impl Modifiers {
    /// No modifier.
    pub const NONE: Modifiers = Modifiers {
        ctrl: false,
        alt: false,
        shift: false,
        meta: false,
    };
    /// Control alone.
    pub const CTRL: Modifiers = Modifiers {
        ctrl: true,
        ..Modifiers::NONE
    };
    /// Alt alone.
    pub const ALT: Modifiers = Modifiers {
        alt: true,
        ..Modifiers::NONE
    };
    /// Shift alone.
    pub const SHIFT: Modifiers = Modifiers {
        shift: true,
        ..Modifiers::NONE
    };
    /// The logo key alone.
    pub const META: Modifiers = Modifiers {
        meta: true,
        ..Modifiers::NONE
    };

    /// Whether no modifier is held.
    pub fn is_empty(&self) -> bool {
        *self == Modifiers::default()
    }

    /// Parses modifiers joined by `+` (`shift`, `ctrl+shift`), case-insensitively: `ctrl`
    /// (`control`), `alt` (`option`), `shift`, `meta` (`super`, `cmd`, `win`).
    pub fn parse(s: &str) -> Result<Modifiers, ParseError> {
        let mut modifiers = Modifiers::default();
        for m in s.split('+') {
            let slot = modifiers.slot(m).ok_or_else(|| {
                ParseError::new(
                    ErrorCode::BadArgument,
                    format!("unknown modifier {m:?} in {s:?}"),
                    "write modifiers like shift, ctrl+shift, alt+meta: ctrl, alt, shift, meta (super, cmd)",
                )
            })?;
            if *slot {
                return Err(ParseError::new(
                    ErrorCode::BadArgument,
                    format!("modifier {m:?} repeated in {s:?}"),
                    "give each modifier once",
                ));
            }
            *slot = true;
        }
        Ok(modifiers)
    }

    /// The field a modifier's name (any case, any alias) sets.
    fn slot(&mut self, name: &str) -> Option<&mut bool> {
        Some(match name.to_ascii_lowercase().as_str() {
            "ctrl" | "control" => &mut self.ctrl,
            "alt" | "option" => &mut self.alt,
            "shift" => &mut self.shift,
            "meta" | "super" | "cmd" | "win" => &mut self.meta,
            _ => return None,
        })
    }
}

impl std::ops::BitOr for Modifiers {
    type Output = Modifiers;

    /// Every modifier held in either.
    fn bitor(self, other: Modifiers) -> Modifiers {
        Modifiers {
            ctrl: self.ctrl || other.ctrl,
            alt: self.alt || other.alt,
            shift: self.shift || other.shift,
            meta: self.meta || other.meta,
        }
    }
}

impl fmt::Display for Modifiers {
    /// The canonical form, joined by `+` in the order ctrl, alt, shift, meta; empty for none.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names = [
            (self.ctrl, "ctrl"),
            (self.alt, "alt"),
            (self.shift, "shift"),
            (self.meta, "meta"),
        ];
        let mut first = true;
        for (_, name) in names.iter().filter(|(on, _)| *on) {
            if !first {
                f.write_str("+")?;
            }
            f.write_str(name)?;
            first = false;
        }
        Ok(())
    }
}

/// Keys that have a name rather than a character. Exhaustive on purpose: every adapter maps
/// each key to its toolkit's, and a key added here must fail to compile there until it does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum NamedKey {
    Enter,
    Tab,
    Space,
    Backspace,
    Delete,
    Escape,
    Insert,
    Home,
    End,
    PageUp,
    PageDown,
    ArrowUp,
    ArrowDown,
    ArrowLeft,
    ArrowRight,
    /// F1 to F24.
    F(u8),
}

const NAMES: &[(NamedKey, &str, &[&str])] = &[
    (NamedKey::Enter, "Enter", &["return"]),
    (NamedKey::Tab, "Tab", &[]),
    (NamedKey::Space, "Space", &[]),
    (NamedKey::Backspace, "Backspace", &[]),
    (NamedKey::Delete, "Delete", &["del"]),
    (NamedKey::Escape, "Escape", &["esc"]),
    (NamedKey::Insert, "Insert", &["ins"]),
    (NamedKey::Home, "Home", &[]),
    (NamedKey::End, "End", &[]),
    (NamedKey::PageUp, "PageUp", &["pgup"]),
    (NamedKey::PageDown, "PageDown", &["pgdn"]),
    (NamedKey::ArrowUp, "ArrowUp", &["up"]),
    (NamedKey::ArrowDown, "ArrowDown", &["down"]),
    (NamedKey::ArrowLeft, "ArrowLeft", &["left"]),
    (NamedKey::ArrowRight, "ArrowRight", &["right"]),
];

impl NamedKey {
    fn parse(s: &str) -> Option<NamedKey> {
        let lower = s.to_ascii_lowercase();
        for (key, name, aliases) in NAMES {
            if name.eq_ignore_ascii_case(&lower) || aliases.contains(&lower.as_str()) {
                return Some(*key);
            }
        }
        let n: u8 = lower.strip_prefix('f')?.parse().ok()?;
        (1..=24).contains(&n).then_some(NamedKey::F(n))
    }
}

impl fmt::Display for NamedKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let NamedKey::F(n) = self {
            return write!(f, "F{n}");
        }
        let name = NAMES.iter().find(|(k, _, _)| k == self).map(|(_, n, _)| *n);
        f.write_str(name.unwrap_or("?"))
    }
}

/// The key of a chord.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Key {
    /// A named key.
    Named(NamedKey),
    /// A key that produces this character (as typed, so `A` is not the same as `a`).
    Char(char),
}

/// One key press with its modifiers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct KeyChord {
    /// Modifiers held.
    pub modifiers: Modifiers,
    /// The key pressed.
    pub key: Key,
}

impl KeyChord {
    /// Parses `mod+mod+key`. A lone `+` as the key is written `ctrl++` or `+`.
    pub fn parse(s: &str) -> Result<KeyChord, ParseError> {
        let bad = |message: String| {
            ParseError::new(
                ErrorCode::BadArgument,
                message,
                "write chords like Enter, ctrl+a, shift+Tab, ctrl+shift+F5; modifiers are ctrl, alt, shift, meta",
            )
        };
        if s.is_empty() {
            return Err(bad("empty key chord".into()));
        }
        // The key is the part after the last `+`, unless the chord ends in `+` (the key is `+`).
        let (mods, key) = if s == "+" {
            ("", "+")
        } else if let Some(m) = s.strip_suffix("++") {
            (m, "+")
        } else {
            match s.rsplit_once('+') {
                Some((m, k)) => (m, k),
                None => ("", s),
            }
        };
        let mut modifiers = Modifiers::default();
        if !mods.is_empty() {
            for m in mods.split('+') {
                let Some(slot) = modifiers.slot(m) else {
                    return Err(bad(format!("unknown modifier {m:?} in {s:?}")));
                };
                if *slot {
                    return Err(bad(format!("modifier {m:?} repeated in {s:?}")));
                }
                *slot = true;
            }
        }
        let mut chars = key.chars();
        let key = match (chars.next(), chars.next()) {
            (None, _) => return Err(bad(format!("no key after the modifiers in {s:?}"))),
            (Some(c), None) if !c.is_control() && !c.is_whitespace() => Key::Char(c),
            _ => {
                Key::Named(NamedKey::parse(key).ok_or_else(|| bad(format!("unknown key {key:?}")))?)
            }
        };
        Ok(KeyChord { modifiers, key })
    }
}

impl fmt::Display for KeyChord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.modifiers.is_empty() {
            write!(f, "{}+", self.modifiers)?;
        }
        self.key.fmt(f)
    }
}

impl fmt::Display for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Key::Named(k) => k.fmt(f),
            Key::Char(c) => write!(f, "{c}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chords_parse_case_insensitively_and_print_canonically() {
        for (input, canonical) in [
            ("Enter", "Enter"),
            ("return", "Enter"),
            ("CTRL+a", "ctrl+a"),
            ("shift+ctrl+tab", "ctrl+shift+Tab"),
            ("cmd+shift+z", "shift+meta+z"),
            ("ctrl++", "ctrl++"),
            ("+", "+"),
            ("f5", "F5"),
            ("alt+PgDn", "alt+PageDown"),
        ] {
            let chord = KeyChord::parse(input).unwrap();
            assert_eq!(chord.to_string(), canonical, "{input}");
            assert_eq!(KeyChord::parse(canonical).unwrap(), chord);
        }
    }

    #[test]
    fn unknown_keys_and_modifiers_are_bad_arguments() {
        for input in [
            "",
            "ctrl+",
            "hyper+a",
            "ctrl+ctrl+a",
            "F25",
            "F0",
            "Enterr",
            "ctrl+ab",
        ] {
            assert_eq!(
                KeyChord::parse(input).unwrap_err().code,
                ErrorCode::BadArgument,
                "{input}"
            );
        }
    }
}

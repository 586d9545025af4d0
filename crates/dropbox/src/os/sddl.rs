//! Who owns a Windows directory and who else may write to it, judged from its security
//! descriptor in SDDL text (`O:<owner>D:<flags>(<ace>)(<ace>)...`), the form Windows itself
//! prints. Plain text in, plain answers out: the Win32 calls that fetch the text are in
//! `windows.rs`, and this judgement is tested on every platform.

/// The current user as Windows names it: its SID, and the SID its token makes the owner of new
/// files (the same SID, or Administrators for an elevated administrator).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Me {
    pub(crate) user: String,
    pub(crate) owner: String,
    /// How SDDL text writes `user` and `owner` where Windows prints them as an alias of its own
    /// (`LA` for a machine's built-in Administrator): whatever a descriptor naming them reads as.
    pub(crate) printed: Vec<String>,
}

impl Me {
    /// Whether `owner` (a SID or an SDDL alias) is this user, or the owner its token gives new
    /// files.
    pub(crate) fn owns(&self, owner: &str) -> bool {
        let owner = sid(owner);
        owner == self.user || owner == self.owner || self.printed.iter().any(|p| p == owner)
    }

    /// Whether `principal` may write to the user's directory without making it shared: the user,
    /// its token's owner, and the principals that can take any file anyway (SYSTEM,
    /// Administrators, and the placeholders for a file's owner and creator).
    fn trusts(&self, principal: &str) -> bool {
        const TRUSTED: [&str; 4] = ["S-1-5-18", "S-1-5-32-544", "S-1-3-4", "S-1-3-0"];
        self.owns(principal) || TRUSTED.contains(&sid(principal))
    }
}

/// A security descriptor's owner and DACL.
#[derive(Debug)]
pub(crate) struct Security<'a> {
    owner: &'a str,
    /// `None`: no DACL (`D:NO_ACCESS_CONTROL`), which lets everyone do anything.
    dacl: Option<Vec<Ace<'a>>>,
}

/// One access control entry: `type;flags;rights;object;inherited object;sid`.
#[derive(Debug)]
struct Ace<'a> {
    allow: bool,
    rights: u32,
    sid: &'a str,
}

/// The rights that let a principal change what a directory holds or who may: add a file or a
/// subdirectory, delete a child, delete, change the DACL or the owner, and the generic write and
/// all rights that include them.
const WRITE_RIGHTS: u32 =
    0x2 | 0x4 | 0x40 | 0x1_0000 | 0x4_0000 | 0x8_0000 | 0x4000_0000 | 0x1000_0000;

impl<'a> Security<'a> {
    /// Reads the owner and the DACL out of SDDL text. What it does not understand grants
    /// nothing it can see, so an unknown right counts as every right (see [`rights`]).
    pub(crate) fn parse(text: &'a str) -> Security<'a> {
        let owner = text
            .strip_prefix("O:")
            .map(|rest| {
                let len = if rest.starts_with("S-") {
                    rest.find(|c: char| !(c.is_ascii_digit() || c == '-' || c == 'S'))
                        .unwrap_or(rest.len())
                } else {
                    rest.len().min(2)
                };
                &rest[..len]
            })
            .unwrap_or("");
        let dacl = match text.find("D:") {
            None => None,
            Some(at) => {
                let body = &text[at + 2..];
                if body.starts_with("NO_ACCESS_CONTROL") {
                    None
                } else {
                    let aces = body.find('(').map_or("", |first| &body[first..]);
                    Some(aces_of(aces))
                }
            }
        };
        Security { owner, dacl }
    }

    /// The owner, as a SID or an SDDL alias.
    pub(crate) fn owner(&self) -> &'a str {
        self.owner
    }

    /// The principals besides `me` (and those it trusts) that an allow entry lets write, named
    /// for a person; `Everyone` when there is no DACL. Inherit-only entries count: they grant
    /// their rights on every file made in the directory.
    pub(crate) fn writers_besides(&self, me: &Me) -> Vec<String> {
        let Some(aces) = &self.dacl else {
            return vec![name("WD")];
        };
        let mut writers: Vec<String> = aces
            .iter()
            .filter(|a| a.allow && a.rights & WRITE_RIGHTS != 0 && !me.trusts(a.sid))
            .map(|a| name(a.sid))
            .collect();
        writers.sort();
        writers.dedup();
        writers
    }
}

/// The ACEs of a DACL's text (`(ace)(ace)...`), each in its balanced parentheses (a conditional
/// ACE holds parentheses of its own). An ACE it cannot read, or text after the last one that is no
/// ACE (a SACL's `S:` part ends the list), is never skipped in silence: an unreadable ACE counts as
/// Everyone allowed every right, so the check refuses rather than passes what it cannot read.
fn aces_of(text: &str) -> Vec<Ace<'_>> {
    let mut aces = Vec::new();
    let mut rest = text;
    while let Some(inner) = rest.strip_prefix('(') {
        let mut depth = 1;
        let end = inner.char_indices().find_map(|(i, c)| {
            depth += match c {
                '(' => 1,
                ')' => -1,
                _ => 0,
            };
            (depth == 0).then_some(i)
        });
        let Some(end) = end else {
            aces.push(Ace::UNREADABLE);
            break;
        };
        aces.push(Ace::parse(&inner[..end]).unwrap_or(Ace::UNREADABLE));
        rest = &inner[end + 1..];
    }
    aces
}

impl<'a> Ace<'a> {
    /// What an ACE that cannot be read counts as.
    const UNREADABLE: Ace<'static> = Ace {
        allow: true,
        rights: u32::MAX,
        sid: "WD",
    };

    fn parse(text: &'a str) -> Option<Ace<'a>> {
        let fields: Vec<&str> = text.splitn(7, ';').collect();
        let [kind, _flags, rights_text, _, _, sid, ..] = fields.as_slice() else {
            return None;
        };
        Some(Ace {
            allow: matches!(*kind, "A" | "OA" | "XA" | "ZA"),
            rights: rights(rights_text),
            sid,
        })
    }
}

/// An ACE's rights: a number (`0x1f01ff`) or two-letter codes (`FA`, `GWGR`). A code this table
/// does not know counts as every right: a check must not pass for what it cannot read.
fn rights(text: &str) -> u32 {
    if let Some(hex) = text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        return u32::from_str_radix(hex, 16).unwrap_or(u32::MAX);
    }
    if let Ok(n) = text.parse() {
        return n;
    }
    let codes = text
        .as_bytes()
        .chunks(2)
        .map(|c| std::str::from_utf8(c).unwrap_or(""));
    codes
        .map(|code| match code {
            "GA" => 0x1000_0000,
            "GX" => 0x2000_0000,
            "GW" => 0x4000_0000,
            "GR" => 0x8000_0000,
            "FA" => 0x1F_01FF,
            "FR" => 0x12_0089,
            "FW" => 0x12_0116,
            "FX" => 0x12_00A0,
            "SD" => 0x1_0000,
            "RC" => 0x2_0000,
            "WD" => 0x4_0000,
            "WO" => 0x8_0000,
            "CC" => 0x1,
            "DC" => 0x2,
            "LC" => 0x4,
            "SW" => 0x8,
            "RP" => 0x10,
            "WP" => 0x20,
            "DT" => 0x40,
            "LO" => 0x80,
            "CR" => 0x100,
            _ => u32::MAX,
        })
        .fold(0, |all, r| all | r)
}

/// The SIDs SDDL writes as two-letter aliases, those a drop-box's descriptor is likely to hold.
const ALIASES: [(&str, &str, &str); 12] = [
    ("WD", "S-1-1-0", "Everyone"),
    ("AU", "S-1-5-11", "Authenticated Users"),
    ("BU", "S-1-5-32-545", "Users"),
    ("BG", "S-1-5-32-546", "Guests"),
    ("IU", "S-1-5-4", "Interactive"),
    ("AN", "S-1-5-7", "Anonymous"),
    ("SY", "S-1-5-18", "SYSTEM"),
    ("BA", "S-1-5-32-544", "Administrators"),
    ("LS", "S-1-5-19", "Local Service"),
    ("NS", "S-1-5-20", "Network Service"),
    ("CO", "S-1-3-0", "CREATOR OWNER"),
    ("OW", "S-1-3-4", "OWNER RIGHTS"),
];

/// The SID an alias stands for; a SID as it is.
fn sid(principal: &str) -> &str {
    ALIASES
        .iter()
        .find(|(alias, _, _)| *alias == principal)
        .map_or(principal, |(_, sid, _)| sid)
}

/// A principal named for a person: `Everyone (S-1-1-0)`, or the SID.
fn name(principal: &str) -> String {
    let sid = sid(principal);
    match ALIASES.iter().find(|(_, s, _)| *s == sid) {
        Some((_, sid, name)) => format!("{name} ({sid})"),
        None => sid.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const USER: &str = "S-1-5-21-1004336348-1177238915-682003330-1001";

    fn me() -> Me {
        Me {
            user: USER.to_owned(),
            owner: USER.to_owned(),
            printed: Vec::new(),
        }
    }

    #[test]
    fn a_private_directory_is_owned_by_the_user_and_shared_with_nobody() {
        let text = format!("O:{USER}D:P(A;OICI;FA;;;{USER})(A;OICI;FA;;;SY)(A;OICI;FA;;;BA)");
        let security = Security::parse(&text);
        assert!(me().owns(security.owner()));
        assert_eq!(security.writers_besides(&me()), Vec::<String>::new());
    }

    #[test]
    fn everyone_allowed_to_write_is_named_and_readers_are_not() {
        let text = format!(
            "O:{USER}D:AI(A;OICIID;FA;;;{USER})(A;OICIID;0x1200a9;;;BU)(A;OICIIOID;GW;;;WD)"
        );
        let security = Security::parse(&text);
        assert_eq!(
            security.writers_besides(&me()),
            ["Everyone (S-1-1-0)".to_owned()]
        );
    }

    #[test]
    fn authenticated_users_with_modify_on_a_root_folder_are_writers() {
        // What a folder made under C:\ by a user inherits.
        let text = format!("O:{USER}D:AI(A;ID;0x1301bf;;;AU)(A;OICIIOID;SDGXGWGR;;;AU)");
        assert_eq!(
            Security::parse(&text).writers_besides(&me()),
            ["Authenticated Users (S-1-5-11)".to_owned()]
        );
    }

    #[test]
    fn no_dacl_lets_everyone_write_and_a_deny_entry_grants_nothing() {
        let open = format!("O:{USER}D:NO_ACCESS_CONTROL");
        assert_eq!(
            Security::parse(&open).writers_besides(&me()),
            ["Everyone (S-1-1-0)"]
        );
        let denied = format!("O:{USER}D:P(A;;FA;;;{USER})(D;;FA;;;WD)");
        assert!(Security::parse(&denied).writers_besides(&me()).is_empty());
    }

    #[test]
    fn an_elevated_administrators_directory_belongs_to_administrators() {
        let admin = Me {
            user: USER.to_owned(),
            owner: "S-1-5-32-544".to_owned(),
            printed: Vec::new(),
        };
        let security = Security::parse("O:BAD:P(A;OICI;FA;;;BA)");
        assert_eq!(security.owner(), "BA");
        assert!(admin.owns(security.owner()));
        assert!(!me().owns(security.owner()));
    }

    #[test]
    fn another_users_directory_is_not_owned() {
        let other = "S-1-5-21-1004336348-1177238915-682003330-1002";
        let text = format!("O:{other}G:{other}D:P(A;OICI;FA;;;{other})");
        let security = Security::parse(&text);
        assert_eq!(security.owner(), other);
        assert!(!me().owns(security.owner()));
        assert_eq!(security.writers_besides(&me()), [other.to_owned()]);
    }

    #[test]
    fn entries_after_a_conditional_one_still_count_and_an_unreadable_one_counts_as_everyone() {
        let text =
            format!("O:{USER}D:(XA;;FA;;;SY;(Member_of {{SID(BA)}}))(A;;FA;;;BU)(A;;FA;;;{USER})");
        assert_eq!(
            Security::parse(&text).writers_besides(&me()),
            ["Users (S-1-5-32-545)"]
        );
        let broken = format!("O:{USER}D:(A;;FA;;;{USER})(A;;FA)");
        assert_eq!(
            Security::parse(&broken).writers_besides(&me()),
            ["Everyone (S-1-1-0)"]
        );
        let unclosed = format!("O:{USER}D:(A;;FA;;;{USER})(A;;FA;;;BU");
        assert_eq!(
            Security::parse(&unclosed).writers_besides(&me()),
            ["Everyone (S-1-1-0)"]
        );
    }

    #[test]
    fn the_built_in_administrator_is_known_by_the_alias_windows_prints_for_it() {
        let administrator = Me {
            user: "S-1-5-21-1004336348-1177238915-682003330-500".to_owned(),
            owner: "S-1-5-32-544".to_owned(),
            printed: vec!["LA".to_owned()],
        };
        let security = Security::parse("O:LAD:P(A;OICI;FA;;;LA)(A;OICI;FA;;;SY)");
        assert!(administrator.owns(security.owner()));
        assert!(security.writers_besides(&administrator).is_empty());
        // Anyone else printed as an alias this table does not know is a writer, by that alias.
        assert_eq!(security.writers_besides(&me()), ["LA"]);
    }

    #[test]
    fn a_right_this_table_does_not_know_counts_as_every_right() {
        assert_eq!(rights("FA"), 0x1F_01FF);
        assert_eq!(rights("0x1200a9") & WRITE_RIGHTS, 0);
        assert_eq!(rights("FR") & WRITE_RIGHTS, 0);
        assert_eq!(rights("ZZ"), u32::MAX);
        let text = format!("O:{USER}D:(A;;ZZ;;;BU)");
        assert_eq!(
            Security::parse(&text).writers_besides(&me()),
            ["Users (S-1-5-32-545)"]
        );
    }
}

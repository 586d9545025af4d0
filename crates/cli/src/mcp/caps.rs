//! `--caps`: the capability groups a server lists beside `core`, as Playwright MCP names the
//! option. The groups themselves, and which verbs each holds, are the verb table's
//! (`protocol::Group`).

use winit_automation_protocol::{Group, Verb};

/// The groups a server lists: `core` always, and those `--caps` adds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Caps(Vec<Group>);

impl Default for Caps {
    fn default() -> Caps {
        Caps(vec![Group::Core])
    }
}

impl Caps {
    /// `GROUP,...` or `all`, as `--caps` takes it; an unknown name is refused with the names,
    /// beside `all` too.
    pub(crate) fn parse(list: &str) -> Result<Caps, String> {
        let mut caps = Caps::default();
        let mut all = false;
        for name in list.split(',').map(str::trim) {
            match Group::parse(name) {
                Some(g) if !caps.0.contains(&g) => caps.0.push(g),
                Some(_) => {}
                None if name == "all" => all = true,
                None => {
                    let groups: Vec<&str> = Group::ALL.iter().map(|g| g.as_str()).collect();
                    return Err(format!(
                        "no capability group {name:?}; the groups are {} (or all)",
                        groups.join(", ")
                    ));
                }
            }
        }
        if all {
            return Ok(Caps(Group::ALL.to_vec()));
        }
        caps.0
            .sort_by_key(|g| Group::ALL.iter().position(|a| a == g));
        Ok(caps)
    }

    /// Whether the server lists `group`'s tools.
    pub(crate) fn has(&self, group: Group) -> bool {
        self.0.contains(&group)
    }

    /// Whether the server lists every group.
    pub(crate) fn has_all(&self) -> bool {
        Group::ALL.iter().all(|&g| self.has(g))
    }

    /// The verbs the server lists, in the table's order.
    pub(crate) fn verbs(&self) -> impl Iterator<Item = Verb> + '_ {
        Verb::ALL.iter().copied().filter(|v| self.has(v.group()))
    }

    /// The `--caps` that lists `group` beside the groups listed now: `--caps clock,trace (or
    /// --caps all)`.
    pub(crate) fn option_with(&self, group: Group) -> String {
        let groups: Vec<&str> = Group::ALL
            .iter()
            .filter(|&&g| g != Group::Core && (g == group || self.has(g)))
            .map(|g| g.as_str())
            .collect();
        format!("--caps {} (or --caps all)", groups.join(","))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn core_is_always_on_and_all_is_every_group() {
        assert_eq!(
            Caps::parse("gestures").unwrap().0,
            [Group::Core, Group::Gestures]
        );
        assert_eq!(
            Caps::parse("trace, clock,core,clock").unwrap().0,
            [Group::Core, Group::Clock, Group::Trace]
        );
        assert_eq!(Caps::parse("all").unwrap().0, Group::ALL);
        assert_eq!(Caps::parse("clock,all").unwrap().0, Group::ALL);
        assert!(Caps::parse("all").unwrap().has_all());
        assert!(!Caps::parse("clock").unwrap().has_all());
        assert_eq!(Caps::default().verbs().count(), Group::Core.verbs().count());
    }

    #[test]
    fn an_unknown_group_is_refused_with_the_names_beside_all_too() {
        let e = Caps::parse("gestures,vision").unwrap_err();
        assert!(e.starts_with("no capability group \"vision\""), "{e}");
        assert!(e.contains("gestures") && e.contains("(or all)"), "{e}");
        assert!(Caps::parse("all,vision").is_err());
        assert!(Caps::parse("").is_err());
    }

    #[test]
    fn the_option_that_lists_a_group_keeps_those_listed() {
        let caps = Caps::parse("clock").unwrap();
        assert_eq!(
            caps.option_with(Group::Trace),
            "--caps clock,trace (or --caps all)"
        );
        assert_eq!(
            Caps::default().option_with(Group::Gestures),
            "--caps gestures (or --caps all)"
        );
    }
}

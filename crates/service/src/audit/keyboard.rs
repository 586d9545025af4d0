//! `audit --keyboard`: the walk of Tab through a window, one press per turn, and what it shows:
//! controls Tab never reaches (2.1.1 Keyboard) and steps that go against reading order (2.4.3
//! Focus Order).
//!
//! The service sends one Tab at a time and reads the focus from the trees after each, so the
//! walk stops as soon as focus comes back round, stays put, or vanishes: a text area that takes
//! Tab itself gets one tab character, not a hundred.
//!
//! Pure: focus readings in, findings out.

use super::rules::CONTROL_ROLES;
use crate::tree::audit::Focused;
use winit_automation_protocol::{Finding, NodeLine, NodeRef, NotRun, Rule};

/// How a walk ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum End {
    /// Focus came back to a node it had reached: every control Tab reaches was reached.
    Cycled,
    /// A Tab left the focus where it was.
    Stayed(NodeRef),
    /// No Tab ever focused anything.
    NoFocus,
    /// Focus left the window's nodes after reaching some.
    Lost,
    /// The most presses were sent.
    Limit(usize),
}

/// A walk of Tab in progress.
#[derive(Debug, Clone)]
pub(crate) struct Walk {
    /// What had the focus before the audit, given back after it.
    pub start: Option<NodeRef>,
    /// What each Tab focused, in order, each once.
    pub seen: Vec<Focused>,
    /// Tabs sent.
    pub tabs: usize,
    /// The most Tabs to send: one per control and two more.
    max: usize,
    /// How it ended, once it has.
    pub end: Option<End>,
}

impl Walk {
    /// A walk of a window whose `snapshot -i` prints `controls`, starting from the focus
    /// `start`.
    pub fn new(start: Option<NodeRef>, controls: &[NodeLine]) -> Walk {
        Walk {
            start,
            seen: Vec::new(),
            tabs: 0,
            max: (controls.len() + 2).min(200),
            end: None,
        }
    }

    /// A Tab was sent.
    pub fn tabbed(&mut self) {
        self.tabs += 1;
    }

    /// The focus after the last Tab; ends the walk when it says so.
    pub fn saw(&mut self, focus: Option<Focused>) {
        let end = match focus {
            None if self.seen.is_empty() => Some(End::NoFocus),
            None => Some(End::Lost),
            Some(f) if self.seen.last().map(|s| s.node) == Some(f.node) => {
                Some(End::Stayed(f.node))
            }
            Some(f) if self.reached(f.node) => Some(End::Cycled),
            Some(f) => {
                self.seen.push(f);
                (self.tabs >= self.max).then_some(End::Limit(self.tabs))
            }
        };
        self.end = end;
    }

    /// Whether a Tab reached `node`.
    fn reached(&self, node: NodeRef) -> bool {
        self.seen.iter().any(|s| s.node == node)
    }

    /// The walk's findings about `controls`, and the rules it could not check.
    pub fn findings(&self, controls: &[NodeLine]) -> (Vec<Finding>, Vec<NotRun>) {
        let mut findings = Vec::new();
        let mut not_run = Vec::new();
        let end = self.end.unwrap_or(End::Limit(self.tabs));
        if end == End::NoFocus {
            let why =
                "Tab focused nothing: the window may not take keys, or nothing in it takes focus";
            for rule in [Rule::Keyboard, Rule::FocusOrder] {
                not_run.push(NotRun {
                    rule,
                    why: why.into(),
                });
            }
            return (findings, not_run);
        }
        let unreached = match end {
            End::Stayed(at) => {
                if let Some(node) = controls.iter().find(|n| n.r#ref == at) {
                    findings.push(Finding {
                        rule: Rule::Keyboard,
                        evidence: "Tab does not leave it (it takes Tab itself, or traps the focus)"
                            .into(),
                        node: node.clone(),
                    });
                }
                not_run.push(NotRun {
                    rule: Rule::Keyboard,
                    why: format!("the walk stopped at {at}, where Tab stays: the controls after it were not checked"),
                });
                None
            }
            End::Limit(n) => Some(format!("not reached in {n} presses of Tab")),
            End::Cycled | End::Lost | End::NoFocus => {
                Some("Tab never reaches it: it cannot be used without a pointer".to_owned())
            }
        };
        if let Some(evidence) = unreached {
            for n in controls {
                if CONTROL_ROLES.contains(&n.role.as_str()) && !n.disabled && !self.reached(n.r#ref)
                {
                    findings.push(Finding {
                        rule: Rule::Keyboard,
                        evidence: evidence.clone(),
                        node: n.clone(),
                    });
                }
            }
        }
        findings.extend(self.against_reading_order(controls));
        (findings, not_run)
    }

    /// Each step of the walk that goes back in reading order (up a row, or left in a row) inside
    /// one window or dialog (from one window to another, reading starts again).
    fn against_reading_order(&self, controls: &[NodeLine]) -> Vec<Finding> {
        let bounds = |r: &NodeRef| {
            controls
                .iter()
                .find(|n| n.r#ref == *r)
                .and_then(|n| Some((n, n.bounds?)))
        };
        let mut out = Vec::new();
        for pair in self.seen.windows(2) {
            if pair[0].region != pair[1].region {
                continue;
            }
            let (Some((_, a)), Some((node, b))) = (bounds(&pair[0].node), bounds(&pair[1].node))
            else {
                continue;
            };
            if reads_before(b, a) {
                let at = |r: [f64; 4]| format!("{},{}", r[0].round(), r[1].round());
                out.push(Finding {
                    rule: Rule::FocusOrder,
                    evidence: format!(
                        "Tab goes from {} at {} back to it at {}: against reading order",
                        pair[0].node,
                        at(a),
                        at(b)
                    ),
                    node: node.clone(),
                });
            }
        }
        out
    }
}

/// Whether box `a` comes before box `b` in reading order: on an earlier row, or on the same row
/// (vertical centres within half the lower box's height) and to the left.
fn reads_before(a: [f64; 4], b: [f64; 4]) -> bool {
    let (ay, by) = (a[1] + a[3] / 2.0, b[1] + b[3] / 2.0);
    if (ay - by).abs() < a[3].min(b[3]) / 2.0 {
        a[0] < b[0]
    } else {
        ay < by
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn controls() -> Vec<NodeLine> {
        [
            r#"@e1 button "A" bounds=0,0,60x20 actions=click,focus"#,
            r#"@e2 button "B" bounds=70,0,60x20 actions=click,focus"#,
            r#"@e3 textbox "C" bounds=0,40,120x20 actions=focus"#,
            r#"@e4 button "D" bounds=0,80,60x20 actions=click"#,
        ]
        .iter()
        .map(|t| NodeLine::parse(t).unwrap())
        .collect()
    }

    fn walk(focus: &[Option<u64>]) -> Walk {
        let mut w = Walk::new(None, &controls());
        for f in focus {
            w.tabbed();
            w.saw(f.map(|n| Focused {
                node: NodeRef(n),
                region: None,
            }));
            if w.end.is_some() {
                break;
            }
        }
        w
    }

    fn rules(w: &Walk) -> Vec<(Rule, u64)> {
        w.findings(&controls())
            .0
            .iter()
            .map(|f| (f.rule, f.node.r#ref.0))
            .collect()
    }

    #[test]
    fn a_control_tab_never_reaches_is_found_once_focus_comes_round() {
        let w = walk(&[Some(1), Some(2), Some(3), Some(1), Some(2)]);
        assert_eq!(w.end, Some(End::Cycled));
        assert_eq!(w.tabs, 4, "the walk stops when focus comes back");
        assert_eq!(rules(&w), [(Rule::Keyboard, 4)]);
    }

    #[test]
    fn a_step_back_up_the_window_is_against_reading_order() {
        let w = walk(&[Some(1), Some(3), Some(2), Some(4), Some(1)]);
        assert_eq!(rules(&w), [(Rule::FocusOrder, 2)]);
        let (findings, _) = w.findings(&controls());
        assert_eq!(
            findings[0].evidence,
            "Tab goes from @e3 at 0,40 back to it at 70,0: against reading order"
        );
    }

    #[test]
    fn no_focus_is_not_run_and_a_stuck_focus_stops_the_walk() {
        let w = walk(&[None]);
        let (findings, not_run) = w.findings(&controls());
        assert!(findings.is_empty());
        assert_eq!(
            not_run.iter().map(|n| n.rule).collect::<Vec<_>>(),
            [Rule::Keyboard, Rule::FocusOrder]
        );
        let w = walk(&[Some(1), Some(3), Some(3), Some(4)]);
        assert_eq!(w.end, Some(End::Stayed(NodeRef(3))));
        let (findings, not_run) = w.findings(&controls());
        assert_eq!(findings.len(), 1);
        assert!(findings[0].evidence.starts_with("Tab does not leave it"));
        assert_eq!(not_run[0].rule, Rule::Keyboard);
    }
}

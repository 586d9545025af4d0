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
use crate::audited::Focused;
use winit_automation_protocol::{Finding, NodeLine, NodeRef, NotRun, Rule};

/// How a walk ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum End {
    /// Focus came back to a node it had reached: every control Tab reaches was reached.
    Cycled,
    /// A Tab left the focus where it was (a text area that takes Tab, or a trap).
    Stayed(NodeRef),
    /// No Tab ever focused anything.
    NoFocus,
    /// Focus left the window's nodes after reaching some.
    Lost,
    /// The most presses were sent before the focus came round.
    Limit(usize),
    /// The command's deadline passed after this many presses.
    Deadline(usize),
}

/// A walk of Tab in progress.
#[derive(Debug, Clone)]
pub struct Walk {
    /// What had the focus before the audit, given back after it.
    pub start: Option<NodeRef>,
    /// What each Tab focused, in order, each once.
    pub seen: Vec<Focused>,
    /// Tabs sent.
    pub tabs: usize,
    /// The most Tabs to send: one per control and two more.
    max: usize,
    /// The last Tab focused nothing (a last control's Tab may leave the focus nowhere): the
    /// next one starts from the first.
    cleared: bool,
    /// What the last Tab focused (the starting focus before the first).
    last: Option<NodeRef>,
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
            cleared: false,
            last: start,
            end: None,
        }
    }

    /// A Tab was sent.
    pub fn tabbed(&mut self) {
        self.tabs += 1;
    }

    /// The focus after the last Tab; ends the walk when it says so. Focus on nothing once is the
    /// way round (a toolkit may leave the focus nowhere after the last control; the next Tab
    /// starts from the first); twice in a row, the focus has left the window's controls.
    pub fn saw(&mut self, focus: Option<Focused>) {
        let end = match focus {
            None if self.cleared || (self.seen.is_empty() && self.start.is_none()) => {
                Some(if self.seen.is_empty() {
                    End::NoFocus
                } else {
                    End::Lost
                })
            }
            None => {
                self.cleared = true;
                self.last = None;
                None
            }
            Some(f) if self.last == Some(f.node) => Some(End::Stayed(f.node)),
            Some(f) if self.seen.iter().any(|s| s.node == f.node) => Some(End::Cycled),
            // Back where the walk started, having passed nowhere or other controls: the start
            // is reached too, and the step to it is one of the order's.
            Some(f) if self.start == Some(f.node) => {
                self.seen.push(f);
                Some(End::Cycled)
            }
            Some(f) => {
                self.cleared = false;
                self.last = Some(f.node);
                self.seen.push(f);
                None
            }
        };
        self.end = end.or_else(|| (self.tabs >= self.max).then_some(End::Limit(self.tabs)));
    }

    /// The command's deadline passed: the walk ends where it is.
    pub fn cut(&mut self) {
        self.end = Some(End::Deadline(self.tabs));
    }

    /// Whether a Tab reached `control`: it was focused, or a node in its place was (egui puts
    /// a new node with a new id in a drag value's place while it has the focus).
    fn reached(&self, control: &NodeLine) -> bool {
        self.seen.iter().any(|s| {
            s.node == control.r#ref
                || matches!((s.bounds, control.bounds), (Some(a), Some(b)) if same_place(a, b))
        })
    }

    /// The walk's findings about `controls`, and the rules it could not check.
    pub fn findings(&self, controls: &[NodeLine]) -> (Vec<Finding>, Vec<NotRun>) {
        let mut findings = Vec::new();
        let mut not_run = Vec::new();
        let end = self.end.unwrap_or(End::Limit(self.tabs));
        let cut_short = match end {
            End::NoFocus => Some(
                "Tab focused nothing: the window may not take keys, or nothing in it takes focus"
                    .to_owned(),
            ),
            End::Stayed(at) => Some(format!(
                "Tab stays on {at} (it takes Tab itself, as a text area does, or traps the focus): the walk stopped there"
            )),
            End::Limit(n) => Some(format!(
                "the focus had not come round after {n} presses of Tab (the most this window gets): the controls not reached are not judged"
            )),
            End::Deadline(n) => Some(format!(
                "the command's deadline passed after {n} presses of Tab"
            )),
            End::Lost => Some(
                "the focus left the window's controls before it came round: the controls not reached are not judged"
                    .to_owned(),
            ),
            End::Cycled => None,
        };
        match cut_short {
            Some(why) => not_run.push(NotRun {
                rule: Rule::Keyboard,
                why,
            }),
            None => findings.extend(self.unreached(controls)),
        }
        if end == End::NoFocus {
            not_run.push(NotRun {
                rule: Rule::FocusOrder,
                why: not_run[0].why.clone(),
            });
        } else {
            findings.extend(self.against_reading_order(controls));
        }
        (findings, not_run)
    }

    /// The controls (of the roles a person operates, enabled) a completed walk never reached.
    fn unreached<'c>(&self, controls: &'c [NodeLine]) -> impl Iterator<Item = Finding> + 'c {
        let missed: Vec<&NodeLine> = controls
            .iter()
            .filter(|n| CONTROL_ROLES.contains(&n.role.as_str()) && !n.disabled && !self.reached(n))
            .collect();
        missed.into_iter().map(|n| Finding {
            rule: Rule::Keyboard,
            evidence: "Tab never reaches it: it cannot be used without a pointer".into(),
            node: n.clone(),
        })
    }

    /// Each step of the walk that goes back in reading order (up a row, or left in a row) inside
    /// one window or dialog (from one window to another, reading starts again).
    fn against_reading_order(&self, controls: &[NodeLine]) -> Vec<Finding> {
        // Tab from the last control of a window back to its first (in reading order, of the
        // nodes Tab reached there) is its way round, not a step back.
        let in_reading_order = |region: Option<NodeRef>, last: bool| {
            self.seen
                .iter()
                .filter(|s| s.region == region)
                .filter_map(|s| Some((s.node, s.bounds?)))
                .reduce(|a, b| if reads_before(b.1, a.1) != last { b } else { a })
                .map(|(node, _)| node)
        };
        let way_round = |from: NodeRef, to: NodeRef, region: Option<NodeRef>| {
            in_reading_order(region, true) == Some(from)
                && in_reading_order(region, false) == Some(to)
        };
        let mut out = Vec::new();
        for pair in self.seen.windows(2) {
            let (from, to) = (&pair[0], &pair[1]);
            let (Some(a), Some(b)) = (from.bounds, to.bounds) else {
                continue;
            };
            if from.region != to.region
                || !reads_before(b, a)
                || way_round(from.node, to.node, to.region)
            {
                continue;
            }
            let node = controls
                .iter()
                .find(|n| n.r#ref == to.node || n.bounds.is_some_and(|c| same_place(c, b)));
            if let Some(node) = node {
                let at = |r: [f64; 4]| format!("{},{}", r[0].round(), r[1].round());
                out.push(Finding {
                    rule: Rule::FocusOrder,
                    evidence: format!(
                        "Tab comes here from {} at {}, below or right of it at {}: against reading order",
                        from.node,
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

/// Whether two boxes are one place: the same corner (within a pixel) and sizes within a quarter
/// of each other (egui's text field in a drag value's place is as wide as its text).
fn same_place(a: [f64; 4], b: [f64; 4]) -> bool {
    let near = |x: f64, y: f64| (x - y).abs() <= 1.0;
    let like = |x: f64, y: f64| (x - y).abs() <= 0.25 * x.max(y);
    near(a[0], b[0]) && near(a[1], b[1]) && like(a[2], b[2]) && like(a[3], b[3])
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

    /// The focus on node `n`: a control's place, or, for 9, a node in @e4's place.
    fn on(n: u64) -> Focused {
        let controls = controls();
        let place = if n == 9 { 4 } else { n };
        Focused {
            node: NodeRef(n),
            region: None,
            bounds: controls
                .iter()
                .find(|c| c.r#ref.0 == place)
                .and_then(|c| c.bounds),
        }
    }

    fn walk_from(start: Option<u64>, focus: &[Option<u64>]) -> Walk {
        let mut w = Walk::new(start.map(NodeRef), &controls());
        for f in focus {
            w.tabbed();
            w.saw(f.map(on));
            if w.end.is_some() {
                break;
            }
        }
        w
    }

    fn walk(focus: &[Option<u64>]) -> Walk {
        walk_from(None, focus)
    }

    fn rules(w: &Walk) -> Vec<(Rule, u64)> {
        w.findings(&controls())
            .0
            .iter()
            .map(|f| (f.rule, f.node.r#ref.0))
            .collect()
    }

    fn not_run(w: &Walk) -> Vec<Rule> {
        w.findings(&controls()).1.iter().map(|n| n.rule).collect()
    }

    #[test]
    fn a_control_tab_never_reaches_is_found_once_focus_comes_round() {
        let w = walk(&[Some(1), Some(2), Some(3), Some(1), Some(2)]);
        assert_eq!(w.end, Some(End::Cycled));
        assert_eq!(w.tabs, 4, "the walk stops when focus comes back");
        assert_eq!(rules(&w), [(Rule::Keyboard, 4)]);
        // A node put in @e4's place when it takes the focus reaches it.
        let w = walk(&[Some(1), Some(2), Some(3), Some(9), Some(1)]);
        assert_eq!(rules(&w), []);
    }

    #[test]
    fn a_step_back_up_the_window_is_against_reading_order_within_one_window() {
        let w = walk(&[Some(1), Some(3), Some(2), Some(4), Some(1)]);
        assert_eq!(rules(&w), [(Rule::FocusOrder, 2)]);
        let (findings, _) = w.findings(&controls());
        assert_eq!(
            findings[0].evidence,
            "Tab comes here from @e3 at 0,40, below or right of it at 70,0: against reading order"
        );
        // Round from the last control to the first is not a step back.
        let w = walk(&[Some(2), Some(3), Some(4), Some(1), Some(2)]);
        assert_eq!(rules(&w), []);
        // From one window to another, reading starts again.
        let mut w = Walk::new(None, &controls());
        for (n, region) in [(1, 1), (3, 1), (2, 2), (4, 2), (1, 1)] {
            w.tabbed();
            w.saw(Some(Focused {
                region: Some(NodeRef(100 + region)),
                ..on(n)
            }));
        }
        assert_eq!(rules(&w), []);
    }

    #[test]
    fn no_focus_is_not_run_and_a_stuck_focus_stops_the_walk_without_a_verdict() {
        let w = walk(&[None]);
        assert!(rules(&w).is_empty());
        assert_eq!(not_run(&w), [Rule::Keyboard, Rule::FocusOrder]);
        let w = walk(&[Some(1), Some(3), Some(3), Some(4)]);
        assert_eq!(w.end, Some(End::Stayed(NodeRef(3))));
        assert!(rules(&w).is_empty(), "a text area may take Tab: not judged");
        assert_eq!(not_run(&w), [Rule::Keyboard]);
        // Focus on a text area before the walk: its first Tab already stays.
        let w = walk_from(Some(3), &[Some(3), Some(3)]);
        assert_eq!((w.end, w.tabs), (Some(End::Stayed(NodeRef(3))), 1));
    }

    #[test]
    fn the_control_the_walk_starts_from_is_reached_when_the_focus_comes_back_to_it() {
        let w = walk_from(Some(3), &[Some(4), Some(1), Some(2), Some(3)]);
        assert_eq!(w.end, Some(End::Cycled));
        assert_eq!(rules(&w), []);
    }

    #[test]
    fn a_last_control_s_tab_may_focus_nothing_and_the_next_goes_on() {
        let w = walk_from(Some(4), &[None, Some(1), Some(2), Some(3), Some(1)]);
        assert_eq!(w.end, Some(End::Cycled));
        assert_eq!(rules(&w), [(Rule::Keyboard, 4)]);
    }

    #[test]
    fn focus_that_leaves_the_controls_is_not_judged_and_nowhere_once_is_the_way_round() {
        // From @e2, Tab reaches @e3, then nothing, then nothing again: the focus left.
        let w = walk_from(Some(2), &[Some(3), None, None]);
        assert_eq!(w.end, Some(End::Lost));
        assert!(rules(&w).is_empty(), "@e1 and @e4 were never judged");
        assert_eq!(not_run(&w), [Rule::Keyboard]);
        // A lone control whose Tab leaves the focus nowhere comes round to it.
        let w = walk_from(Some(1), &[None, Some(1)]);
        assert_eq!(w.end, Some(End::Cycled));
        // A step back into the first control that is not from the last is against reading order.
        let w = walk(&[Some(2), Some(1), Some(3), Some(4), Some(2)]);
        assert_eq!(rules(&w), [(Rule::FocusOrder, 1)]);
    }

    #[test]
    fn the_most_presses_or_a_deadline_leave_the_unreached_unjudged() {
        let w = walk(&[
            Some(1),
            Some(2),
            Some(3),
            Some(9),
            Some(5),
            Some(6),
            Some(7),
        ]);
        assert_eq!(w.end, Some(End::Limit(6)));
        assert!(rules(&w).is_empty());
        assert_eq!(not_run(&w), [Rule::Keyboard]);
        let mut w = walk(&[Some(1)]);
        w.cut();
        assert_eq!(not_run(&w), [Rule::Keyboard]);
        assert!(
            w.findings(&controls()).1[0]
                .why
                .contains("deadline passed after 1")
        );
    }
}

//! The audit's rules over the tree's lines: a control with no accessible name (4.1.2), a target
//! under 24 by 24 logical pixels without room around it (2.5.8), an image with no name (1.1.1),
//! and the verdict on a text's measured contrast (1.4.3). docs/accessibility.md explains each, with
//! its limits.
//!
//! Pure: lines in, findings out.

use super::contrast::{Measured, hex};
use crate::audited::{Audited, FontSource, Layer, Text};
use winit_automation_protocol::{Finding, NodeLine, Rule};

/// The roles a person operates, which a screen reader must be able to name.
pub const CONTROL_ROLES: &[&str] = &[
    "button",
    "checkbox",
    "radio",
    "switch",
    "textbox",
    "textarea",
    "number",
    "spinbutton",
    "slider",
    "combobox",
    "link",
    "tab",
    "menuitem",
    "option",
    "colorwell",
    // A node that takes clicks or focus and names no role: a screen reader cannot say what it is.
    "unknown",
];

/// The least width and height of a target, in logical pixels (CSS pixels in WCAG).
pub const MIN_TARGET: f64 = 24.0;

/// The findings of the rules that need no pixels, rule by rule, each in tree order.
pub fn tree_findings(a: &Audited) -> Vec<Finding> {
    let mut out = Vec::new();
    out.extend(a.controls.iter().filter_map(unnamed));
    let neighbours = if a.neighbours.is_empty() {
        &a.controls
    } else {
        &a.neighbours
    };
    out.extend(small_targets(a, neighbours));
    out.extend(
        a.images
            .iter()
            .filter(|n| n.name.is_empty())
            .map(|n| Finding {
                rule: Rule::ImageName,
                evidence: "no name: give it one, or hide it from the tree if it is decoration"
                    .into(),
                node: n.clone(),
            }),
    );
    out
}

/// A control with no accessible name (4.1.2): what a screen reader says of it is its role alone.
fn unnamed(n: &NodeLine) -> Option<Finding> {
    if !n.name.is_empty() || !CONTROL_ROLES.contains(&n.role.as_str()) {
        return None;
    }
    let evidence = match &n.label {
        None if n.role == "unknown" => {
            "no name and no role: a screen reader cannot say what it is".to_owned()
        }
        None => format!(
            "no name and no label: a screen reader says only {:?}",
            n.role
        ),
        Some(label) => format!(
            "no name: a screen reader says only {:?}; the text {label:?} before it reads as its label but is not tied to it",
            n.role
        ),
    };
    Some(Finding {
        rule: Rule::Name,
        evidence,
        node: n.clone(),
    })
}

/// Whether a node is a pointer target: it takes input other than scrolling (a scroll area is not
/// something one aims at), and it is not text (egui lets text take clicks to select it; a link is
/// a target).
fn is_target(n: &NodeLine) -> bool {
    n.bounds.is_some()
        && !n.disabled
        && n.role != "text"
        && n.actions.iter().any(|a| !a.starts_with("scroll"))
}

/// Targets smaller than 24 by 24 (2.5.8) whose 24 px circle, centred on them, meets another
/// target or another small target's circle (the spacing exception). A target that holds the
/// small one, or one it holds, is not "another" (a list item around its button), nor is one in a
/// lower layer where the small one's layer covers it (a window under a popup). The targets
/// checked are the audit's controls; the others are `neighbours` (the whole window's, for a
/// scope).
fn small_targets(a: &Audited, neighbours: &[NodeLine]) -> Vec<Finding> {
    let targets = |nodes: &'_ [NodeLine]| -> Vec<(NodeLine, [f64; 4])> {
        nodes
            .iter()
            .filter(|n| is_target(n))
            .filter_map(|n| Some((n.clone(), n.bounds?)))
            .collect()
    };
    let (checked, others) = (targets(&a.controls), targets(neighbours));
    let small = |b: &[f64; 4]| b[2] < MIN_TARGET || b[3] < MIN_TARGET;
    let mut out = Vec::new();
    for (node, b) in checked {
        if !small(&b) {
            continue;
        }
        let c = centre(b);
        let own = a.layer(node.r#ref);
        let crowded = others.iter().find(|(other, o)| {
            let o = *o;
            if other.r#ref == node.r#ref || contains(o, b) || contains(b, o) {
                return false;
            }
            if under(a.layer(other.r#ref), own, nearest(c, o)) {
                return false;
            }
            distance_to_rect(c, o) < MIN_TARGET / 2.0
                || (small(&o) && distance(c, centre(o)) < MIN_TARGET)
        });
        let Some((other, o)) = crowded else {
            continue;
        };
        let why = if distance_to_rect(c, *o) < MIN_TARGET / 2.0 {
            "meets"
        } else {
            "meets the circle of"
        };
        out.push(Finding {
            rule: Rule::TargetSize,
            evidence: format!(
                "{}x{} px, under 24x24, and the 24 px circle around it {why} {}",
                px(b[2]),
                px(b[3]),
                other.r#ref
            ),
            node,
        });
    }
    out
}

/// The verdict on one measured text (1.4.3): a finding when its ratio is under 4.5:1, or 3:1 for
/// large text (24 px, or 18.66 px bold). No rounding: 4.49:1 fails.
pub fn contrast_finding(text: &Text, m: &Measured) -> Option<Finding> {
    let f = text.font;
    let large = f.px >= 24.0 || (f.bold && f.px >= 18.66);
    let needed = if large { 3.0 } else { 4.5 };
    if m.ratio >= needed {
        return None;
    }
    let weight = if f.bold { " bold" } else { "" };
    let size = match f.source {
        FontSource::Tree => format!("{}{weight} px text (font size from the tree)", px(f.px)),
        FontSource::LineHeight => format!(
            "{}{weight} px text (font size estimated from its line height)",
            px(f.px)
        ),
        FontSource::Unknown => {
            "a control's text (its font size is not in the tree, and its box holds padding)"
                .to_owned()
        }
    };
    Some(Finding {
        rule: Rule::Contrast,
        evidence: format!(
            "{:.2}:1 (text {} on {}); {needed}:1 needed for {size}",
            // Down to the hundredth, so that a ratio just under the threshold never reads as it.
            (m.ratio * 100.0).floor() / 100.0,
            hex(m.text),
            hex(m.background),
        ),
        node: text.node.clone(),
    })
}

/// A length for evidence: whole pixels, or one decimal.
fn px(v: f64) -> String {
    let r = (v * 10.0).round() / 10.0;
    if r.fract() == 0.0 {
        format!("{r:.0}")
    } else {
        format!("{r:.1}")
    }
}

/// Whether a point of a node in layer `other` lies under layer `own` there: `other` is lower and
/// `own`'s root holds the point.
fn under(other: Layer, own: Layer, at: (f64, f64)) -> bool {
    other.rank < own.rank
        && own
            .root
            .is_some_and(|[x, y, w, h]| (x..=x + w).contains(&at.0) && (y..=y + h).contains(&at.1))
}

/// The point of a rectangle nearest to `p`.
fn nearest(p: (f64, f64), [x, y, w, h]: [f64; 4]) -> (f64, f64) {
    (p.0.clamp(x, x + w), p.1.clamp(y, y + h))
}

fn centre([x, y, w, h]: [f64; 4]) -> (f64, f64) {
    (x + w / 2.0, y + h / 2.0)
}

fn distance(a: (f64, f64), b: (f64, f64)) -> f64 {
    (a.0 - b.0).hypot(a.1 - b.1)
}

/// The distance from a point to the nearest point of a rectangle (0 inside it).
fn distance_to_rect(p: (f64, f64), [x, y, w, h]: [f64; 4]) -> f64 {
    let dx = (x - p.0).max(0.0).max(p.0 - (x + w));
    let dy = (y - p.1).max(0.0).max(p.1 - (y + h));
    dx.hypot(dy)
}

/// Whether `outer` holds all of `inner`.
fn contains(outer: [f64; 4], inner: [f64; 4]) -> bool {
    outer[0] <= inner[0]
        && outer[1] <= inner[1]
        && outer[0] + outer[2] >= inner[0] + inner[2]
        && outer[1] + outer[3] >= inner[1] + inner[3]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audited::Font;
    use winit_automation_protocol::NodeRef;

    fn line(text: &str) -> NodeLine {
        NodeLine::parse(text).unwrap()
    }

    fn audited(controls: &[&str], images: &[&str]) -> Audited {
        Audited {
            window: 1,
            controls: controls.iter().map(|t| line(t)).collect(),
            images: images.iter().map(|t| line(t)).collect(),
            ..Audited::default()
        }
    }

    fn rules_of(findings: &[Finding]) -> Vec<(Rule, String)> {
        findings
            .iter()
            .map(|f| (f.rule, f.node.r#ref.to_string()))
            .collect()
    }

    #[test]
    fn unnamed_controls_are_found_named_and_labelled_ones_differ() {
        let a = audited(
            &[
                "@e1 button bounds=0,0,80x30 actions=click",
                r#"@e2 button "Save" bounds=0,40,80x30 actions=click"#,
                r#"@e3 checkbox label="Snap:" bounds=0,80,80x30 actions=click"#,
                "@e4 group bounds=0,120,80x30 actions=click",
                r#"@e5 textbox "Email" bounds=0,160,200x30 actions=focus"#,
            ],
            &[
                r#"@e6 image "Logo" bounds=0,200,30x30"#,
                "@e7 image bounds=40,200,30x30",
            ],
        );
        let found = tree_findings(&a);
        assert_eq!(
            rules_of(&found),
            [
                (Rule::Name, "@e1".into()),
                (Rule::Name, "@e3".into()),
                (Rule::ImageName, "@e7".into())
            ]
        );
        assert!(found[0].evidence.starts_with("no name and no label"));
        assert!(
            found[1].evidence.contains("\"Snap:\" before it"),
            "{}",
            found[1].evidence
        );
    }

    #[test]
    fn small_targets_fail_only_without_room_around_them() {
        let a = audited(
            &[
                // Two 18 px high buttons 21 px apart: each one's circle meets the other.
                r#"@e1 button "A" bounds=0,0,60x18 actions=click"#,
                r#"@e2 button "B" bounds=0,21,60x18 actions=click"#,
                // A 16 px box alone, far from everything: the spacing exception holds.
                r#"@e3 checkbox "C" bounds=300,300,16x16 actions=click"#,
                // A big target right beside a small one that is not crowded otherwise.
                r#"@e4 button "D" bounds=300,0,100x40 actions=click"#,
                r#"@e5 button "E" bounds=300,41,20x20 actions=click"#,
                // A scroll area around everything is not a target.
                "@e6 scrollview bounds=0,0,1000x1000 actions=scroll_down,scroll_up",
                // A list item that holds its small button does not crowd it.
                r#"@e7 listitem "F" bounds=600,0,200x20 actions=click"#,
                r#"@e8 button "G" bounds=602,2,16x16 actions=click"#,
            ],
            &[],
        );
        let found = tree_findings(&a);
        assert_eq!(
            rules_of(&found),
            [
                (Rule::TargetSize, "@e1".into()),
                (Rule::TargetSize, "@e2".into()),
                (Rule::TargetSize, "@e5".into()),
            ]
        );
        assert_eq!(
            found[0].evidence,
            "60x18 px, under 24x24, and the 24 px circle around it meets the circle of @e2"
        );
        assert!(
            found[2].evidence.ends_with("meets @e4"),
            "{}",
            found[2].evidence
        );
    }

    #[test]
    fn a_target_under_the_small_one_s_window_does_not_crowd_it() {
        let mut a = audited(
            &[
                r#"@e1 button "Low" bounds=0,0,60x18 actions=click"#,
                r#"@e2 button "High" bounds=0,21,60x18 actions=click"#,
            ],
            &[],
        );
        assert_eq!(
            tree_findings(&a).len(),
            2,
            "one window: they crowd each other"
        );
        // @e2 is in a window above, whose box holds where @e1 meets its circle.
        let above = Layer {
            rank: 1,
            root: Some([0.0, 15.0, 100.0, 100.0]),
        };
        a.layers = vec![(NodeRef(2), above)];
        assert_eq!(
            rules_of(&tree_findings(&a)),
            [(Rule::TargetSize, "@e1".into())],
            "@e1, below, is still crowded by @e2 on top; @e2 is not by @e1 under it"
        );
    }

    #[test]
    fn a_scoped_small_target_is_measured_against_its_neighbours_outside_the_scope() {
        let a = r#"@e1 button "A" bounds=0,0,16x16 actions=click"#;
        let b = r#"@e2 button "B" bounds=18,0,16x16 actions=click"#;
        let alone = audited(&[a], &[]);
        assert!(
            tree_findings(&alone).is_empty(),
            "no neighbour, no crowding"
        );
        let scoped = Audited {
            neighbours: audited(&[a, b], &[]).controls,
            ..alone
        };
        assert_eq!(
            rules_of(&tree_findings(&scoped)),
            [(Rule::TargetSize, "@e1".into())]
        );
    }

    #[test]
    fn contrast_thresholds_depend_on_size_and_weight() {
        let text = |px: f64, bold: bool| Text {
            node: line(r#"@e9 text "Hint" bounds=0,0,40x16"#),
            font: Font {
                px,
                bold,
                source: FontSource::LineHeight,
            },
            inset: 0.0,
            mask: Vec::new(),
        };
        let m = |ratio: f64| Measured {
            text: [0x77; 3],
            background: [255; 3],
            ratio,
        };
        let finding = contrast_finding(&text(13.0, false), &m(4.48)).unwrap();
        assert_eq!(
            finding.evidence,
            "4.48:1 (text #777777 on #ffffff); 4.5:1 needed for 13 px text (font size estimated from its line height)"
        );
        assert!(contrast_finding(&text(13.0, false), &m(4.5)).is_none());
        assert!(contrast_finding(&text(24.0, false), &m(3.1)).is_none());
        assert!(contrast_finding(&text(19.0, true), &m(3.1)).is_none());
        assert!(contrast_finding(&text(19.0, false), &m(3.1)).is_some());
        assert!(contrast_finding(&text(24.0, false), &m(2.9)).is_some());
    }
}

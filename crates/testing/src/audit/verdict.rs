//! What an audit assertion makes of an answer: the findings no [`Allow`] covers and the rules that
//! did not run, listed for the failure message.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::super::query::By;
use super::allow::Allow;
use winit_automation_protocol::{AuditAnswer, Finding, NodeRef, NodeValue, NotRun, Selector, Term};

/// The findings and rules that fail an assertion, and how many findings were allowed.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Verdict {
    /// Findings no allow covers, in the answer's order.
    pub findings: Vec<Finding>,
    /// Rules that did not run, that no allow covers.
    pub not_run: Vec<NotRun>,
    /// Findings an allow covered.
    pub allowed: usize,
}

impl Verdict {
    /// Whether the assertion passes.
    pub fn passed(&self) -> bool {
        self.findings.is_empty() && self.not_run.is_empty()
    }

    /// The failure's account: a heading with the counts, what was checked and the rules that ran,
    /// then each finding's and each failing `not-run` line as the app wrote it, indented, and how
    /// to allow the first, in `form`.
    pub fn report(&self, answer: &AuditAnswer, form: Form) -> String {
        let c = answer.checked;
        let mut out = format!(
            "the audit of window {}{} (frame {}) is not clean: {} finding(s), {} rule(s) not run",
            answer.window,
            answer
                .scope
                .map(|s| format!(", the subtree of {s}"))
                .unwrap_or_default(),
            answer.frame,
            self.findings.len(),
            self.not_run.len(),
        );
        if self.allowed > 0 {
            let _ = write!(out, "; {} finding(s) allowed", self.allowed);
        }
        let _ = write!(
            out,
            "\n  checked {} controls, {} texts ({} unmeasured), {} images",
            c.controls, c.texts, c.unmeasured, c.images
        );
        // An app older than `rules=` names none.
        if !answer.rules.is_empty() {
            let ran: Vec<&str> = answer
                .rules
                .iter()
                .filter(|r| !answer.not_run.iter().any(|n| n.rule == **r))
                .map(|r| r.as_str())
                .collect();
            let ran = if ran.is_empty() {
                "none".to_owned()
            } else {
                ran.join(", ")
            };
            let _ = write!(out, "\n  rules run: {ran}");
        }
        for finding in &self.findings {
            let _ = write!(out, "\n  {finding}");
        }
        for not_run in &self.not_run {
            let _ = write!(out, "\n  {not_run}");
        }
        let _ = write!(out, "\n{}", self.suggestion(form));
        out
    }

    /// How to allow the first failure if it is meant to be: its rule on its node (by role, and
    /// name or text, when the node has one), or the whole rule.
    fn suggestion(&self, form: Form) -> String {
        let (rule, node) = match (self.findings.first(), self.not_run.first()) {
            (Some(f), _) => (f.rule, Some(&f.node)),
            (None, Some(n)) => (n.rule, None),
            (None, None) => return String::new(),
        };
        let named = node.and_then(|n| {
            let by = By::role(&n.role);
            match n.value.as_ref().map(NodeValue::as_str) {
                _ if !n.name.is_empty() => Some(by.and_name(&n.name)),
                Some(text) if !text.is_empty() => Some(by.and_text(text)),
                _ => None,
            }
        });
        let whole = Allow::rule(rule);
        let show = |on: Option<&By>| match (form, on) {
            (Form::Script, None) => format!("--allow {whole}"),
            (Form::Script, Some(by)) => format!("--allow {}", whole.clone().on(by)),
            (Form::Rust, None) => format!("Allow::rule(Rule::{rule:?})"),
            (Form::Rust, Some(by)) => format!("Allow::rule(Rule::{rule:?}).on(&{})", rust_by(by)),
        };
        match &named {
            Some(by) => format!(
                "if it is meant to be, allow it on its node: {}, or the whole rule: {}",
                show(Some(by)),
                show(None)
            ),
            None => format!("if it is meant to be, allow the rule: {}", show(None)),
        }
    }
}

/// Which language a report's suggestion is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Form {
    /// The harness's: `Allow::rule(Rule::Name)`.
    Rust,
    /// A script's: `--allow name`.
    Script,
}

/// The Rust expression of a `By` of role and name or text, as the suggestion builds them.
fn rust_by(by: &By) -> String {
    let Some(selector) = by.selector() else {
        return "By::default()".to_owned();
    };
    let mut out = String::from("By");
    for (i, term) in selector.terms.iter().enumerate() {
        let (method, value) = match term {
            Term::Role(v) => ("role", v),
            Term::Name(v) => ("name", v),
            Term::Text(v) => ("text", v),
            _ => continue,
        };
        let _ = if i == 0 {
            write!(out, "::{method}({value:?})")
        } else {
            write!(out, ".and_{method}({value:?})")
        };
    }
    out
}

/// Judges `answer` against `allow`: every finding and every `not-run` line fails unless allowed
/// (a rule not asked for is not in the answer at all). `find` gives the refs of the nodes a selector finds now; it is asked once per selector, and
/// only while a finding is left to allow.
pub(crate) fn judge<E>(
    answer: &AuditAnswer,
    allow: &[Allow],
    mut find: impl FnMut(&Selector) -> Result<Vec<NodeRef>, E>,
) -> Result<Verdict, E> {
    let mut verdict = Verdict::default();
    let mut found: BTreeMap<String, Vec<NodeRef>> = BTreeMap::new();
    'findings: for finding in &answer.findings {
        for a in allow {
            if a.allowed_rule().is_some_and(|r| r != finding.rule) {
                continue;
            }
            let covered = match a.selector() {
                None => true,
                Some(selector) => {
                    let key = selector.to_string();
                    if !found.contains_key(&key) {
                        found.insert(key.clone(), find(selector)?);
                    }
                    found[&key].contains(&finding.node.r#ref)
                }
            };
            if covered {
                verdict.allowed += 1;
                continue 'findings;
            }
        }
        verdict.findings.push(finding.clone());
    }
    for not_run in &answer.not_run {
        if allow.iter().any(|a| a.allows_not_run(not_run.rule)) {
            continue;
        }
        verdict.not_run.push(not_run.clone());
    }
    Ok(verdict)
}

#[cfg(test)]
mod tests {
    use super::*;
    use winit_automation_protocol::{Checked, NodeLine, Rule};

    /// An answer as the app writes it to `audit`: the rules asked for (not the keyboard's), a
    /// name finding on @e12, a target-size one on @e12 and @e14, a contrast one on @e30.
    const BODY: &str = r#"frame 412
audit window=1 findings=4 rules=name,target-size,contrast,image-name controls=23 texts=41 unmeasured=1 images=2
name 4.1.2 critical "no name and no label" @e12 button bounds=10,20,14x14 actions=click,focus
target-size 2.5.8 serious "14x14 px; 24x24 needed, and no spacing exception" @e12 button bounds=10,20,14x14 actions=click,focus
target-size 2.5.8 serious "16x16 px; 24x24 needed, and no spacing exception" @e14 button "×" bounds=40,20,16x16 actions=click,focus
contrast 1.4.3 serious "2.9:1 (text #8c8c8c on #1b1b1b); 4.5:1 needed for 12 px text (line height)" @e30 text "Hint" bounds=10,60,100x16
"#;

    fn answer() -> AuditAnswer {
        AuditAnswer::parse(BODY).unwrap()
    }

    /// The same to `audit --keyboard` where Tab focused nothing: the keyboard's rules asked
    /// for, and not run.
    fn keyboard_answer() -> AuditAnswer {
        let why = "Tab focused nothing: the window may not take keys";
        let mut a = answer();
        for rule in [Rule::Keyboard, Rule::FocusOrder] {
            a.rules.push(rule);
            a.not_run.push(NotRun {
                rule,
                why: why.into(),
            });
        }
        a
    }

    /// The refs each selector finds in the app this answer came from.
    fn find(selector: &Selector) -> Result<Vec<NodeRef>, String> {
        Ok(match selector.to_string().as_str() {
            r#"role=button name="×""# => vec![NodeRef(14)],
            "role=text" => vec![NodeRef(30), NodeRef(31)],
            "role=button" => vec![NodeRef(12), NodeRef(14)],
            _ => Vec::new(),
        })
    }

    fn rules(findings: &[Finding]) -> Vec<(Rule, u64)> {
        findings.iter().map(|f| (f.rule, f.node.r#ref.0)).collect()
    }

    #[test]
    fn the_app_s_answer_reads_into_its_findings_and_counts() {
        let a = answer();
        assert_eq!((a.frame, a.window, a.scope), (412, 1, None));
        assert_eq!(
            a.checked,
            Checked {
                controls: 23,
                texts: 41,
                unmeasured: 1,
                images: 2
            }
        );
        assert_eq!(
            rules(&a.findings),
            [
                (Rule::Name, 12),
                (Rule::TargetSize, 12),
                (Rule::TargetSize, 14),
                (Rule::Contrast, 30)
            ]
        );
        assert_eq!(a.findings[2].node.name, "×");
        assert!(!a.is_clean());
    }

    #[test]
    fn with_nothing_allowed_every_finding_and_every_rule_not_run_fails() {
        // Without `--keyboard` the app names neither of the keyboard's rules: nothing of them
        // to judge.
        let v = judge(&answer(), &[], find).unwrap();
        assert_eq!(v.findings, answer().findings);
        assert!(v.not_run.is_empty(), "{v:?}");
        assert!(!v.passed());
        // Asked for and not run, they fail: never clean.
        let v = judge(&keyboard_answer(), &[], find).unwrap();
        assert_eq!(v.findings, answer().findings);
        let rules: Vec<Rule> = v.not_run.iter().map(|n| n.rule).collect();
        assert_eq!(rules, [Rule::Keyboard, Rule::FocusOrder]);
    }

    #[test]
    fn a_rule_a_node_or_a_rule_on_nodes_allows_just_those_findings() {
        let name = Allow::rule(Rule::Name);
        let close = Allow::node(&By::role("button").and_name("×"));
        let contrast_on_buttons = Allow::rule(Rule::Contrast).on(&By::role("button"));
        let v = judge(&answer(), &[name, close, contrast_on_buttons], find).unwrap();
        assert_eq!(
            rules(&v.findings),
            [(Rule::TargetSize, 12), (Rule::Contrast, 30)]
        );
        assert_eq!(v.allowed, 2);

        let everything = [
            Allow::rule(Rule::Name),
            Allow::rule(Rule::TargetSize),
            Allow::rule(Rule::Contrast).on(&By::role("text")),
        ];
        let v = judge(&answer(), &everything, find).unwrap();
        assert!(v.passed(), "{v:?}");
        assert_eq!(v.allowed, 4);
    }

    #[test]
    fn a_rule_that_did_not_run_fails_unless_the_whole_rule_is_allowed() {
        let mut a = answer();
        a.findings.clear();
        a.not_run.push(NotRun {
            rule: Rule::Contrast,
            why: "this app answers screenshots itself".into(),
        });
        let on_text = Allow::rule(Rule::Contrast).on(&By::role("text"));
        let v = judge(&a, std::slice::from_ref(&on_text), find).unwrap();
        assert_eq!(v.not_run.len(), 1);
        assert!(!v.passed());
        let v = judge(&a, &[on_text, Allow::rule(Rule::Contrast)], find).unwrap();
        assert!(v.passed(), "{v:?}");
    }

    #[test]
    fn selectors_are_looked_up_once_and_only_while_a_finding_is_left() {
        let mut asked = Vec::new();
        let allow = [
            Allow::rule(Rule::Name).on(&By::role("button")),
            Allow::node(&By::role("button")),
        ];
        let v = judge(&answer(), &allow, |s: &Selector| {
            asked.push(s.to_string());
            find(s)
        })
        .unwrap();
        assert_eq!(asked, ["role=button"]);
        assert_eq!(rules(&v.findings), [(Rule::Contrast, 30)]);

        let mut clean = answer();
        clean.findings.clear();
        let v = judge(&clean, &allow, |_: &Selector| -> Result<_, ()> {
            panic!("no finding: nothing to look up")
        });
        assert!(v.unwrap().passed());
        let e = judge(&answer(), &allow, |_: &Selector| Err("gone"));
        assert_eq!(e.unwrap_err(), "gone");
    }

    #[test]
    fn the_report_lists_each_finding_and_rule_not_run_as_the_app_wrote_them() {
        let answer = keyboard_answer();
        let v = judge(&answer, &[Allow::rule(Rule::Name)], find).unwrap();
        let report = v.report(&answer, Form::Script);
        let lines: Vec<&str> = report.lines().collect();
        assert_eq!(
            lines[0],
            "the audit of window 1 (frame 412) is not clean: 3 finding(s), 2 rule(s) not run; 1 finding(s) allowed"
        );
        assert_eq!(
            lines[1],
            "  checked 23 controls, 41 texts (1 unmeasured), 2 images"
        );
        // The rules asked for, less those that did not run.
        assert_eq!(
            lines[2],
            "  rules run: name, target-size, contrast, image-name"
        );
        let body: Vec<&str> = BODY.lines().collect();
        assert_eq!(lines[3], format!("  {}", body[3]));
        assert_eq!(lines[5], format!("  {}", body[5]));
        assert_eq!(lines[6], format!("  {}", answer.not_run[0]));
        assert_eq!(
            lines[6],
            r#"  not-run keyboard "Tab focused nothing: the window may not take keys""#
        );
        assert_eq!(lines[7], format!("  {}", answer.not_run[1]));
        assert_eq!(
            lines[8],
            "if it is meant to be, allow the rule: --allow target-size"
        );
        let line = NodeLine::parse(&body[5][body[5].find("@e30").unwrap()..]).unwrap();
        assert_eq!(v.findings[2].node, line);
    }

    #[test]
    fn the_suggestion_names_the_node_by_its_text_when_it_has_no_name() {
        let body = "frame 2\naudit window=1 findings=1 controls=0 texts=1 unmeasured=0 images=0\ncontrast 1.4.3 serious \"4.48:1\" @e12 text value=\"Faint text\" bounds=16,112,84.6x23\n";
        let answer = AuditAnswer::parse(body).unwrap();
        let v = judge(&answer, &[], find).unwrap();
        let last = |form| v.report(&answer, form).lines().last().unwrap().to_owned();
        assert_eq!(
            last(Form::Script),
            r#"if it is meant to be, allow it on its node: --allow contrast role=text text="Faint text", or the whole rule: --allow contrast"#
        );
        assert_eq!(
            last(Form::Rust),
            r#"if it is meant to be, allow it on its node: Allow::rule(Rule::Contrast).on(&By::role("text").and_text("Faint text")), or the whole rule: Allow::rule(Rule::Contrast)"#
        );
        // What it suggests reads back as the allow it names, and allows the finding.
        let allow = Allow::parse(r#"contrast role=text text="Faint text""#).unwrap();
        let found = |_: &Selector| Ok::<_, ()>(vec![NodeRef(12)]);
        assert!(judge(&answer, &[allow], found).unwrap().passed());
    }
}

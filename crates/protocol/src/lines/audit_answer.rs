//! The `audit` answer (docs/protocol.md, section 4.10): [`AuditAnswer`], its [`Finding`]s, the
//! [`Rule`]s they break and the rules that could not run ([`NotRun`]), written and parsed back.

use std::fmt;

use super::malformed::malformed;
use super::node::NodeLine;
use crate::ParseError;
use crate::lexer::{quote, tokenize};
use crate::target::NodeRef;

/// A rule of the audit, each tied to one WCAG 2.2 success criterion.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Rule {
    /// A control with no accessible name and no label (4.1.2 Name, Role, Value).
    Name,
    /// A target smaller than 24 by 24 logical pixels without the spacing exception (2.5.8).
    TargetSize,
    /// Text whose contrast with its background is below 4.5:1, or 3:1 when large (1.4.3).
    Contrast,
    /// An image with no name (1.1.1 Non-text Content).
    ImageName,
    /// A control that Tab never reaches (2.1.1 Keyboard; `--keyboard`).
    Keyboard,
    /// Tab moving focus against reading order (2.4.3 Focus Order; `--keyboard`).
    FocusOrder,
}

/// How much a finding keeps people from using the app, in axe-core's words.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Impact {
    /// Blocks: a screen reader user cannot tell what the control is.
    Critical,
    /// Gets in the way seriously.
    Serious,
    /// Gets in the way.
    Moderate,
}

impl Rule {
    /// Every rule, in the order an answer lists them.
    pub const ALL: [Rule; 6] = [
        Rule::Name,
        Rule::TargetSize,
        Rule::Contrast,
        Rule::ImageName,
        Rule::Keyboard,
        Rule::FocusOrder,
    ];

    /// The rule's word on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            Rule::Name => "name",
            Rule::TargetSize => "target-size",
            Rule::Contrast => "contrast",
            Rule::ImageName => "image-name",
            Rule::Keyboard => "keyboard",
            Rule::FocusOrder => "focus-order",
        }
    }

    /// The WCAG 2.2 success criterion it checks: number and title.
    pub fn criterion(self) -> (&'static str, &'static str) {
        match self {
            Rule::Name => ("4.1.2", "Name, Role, Value"),
            Rule::TargetSize => ("2.5.8", "Target Size (Minimum)"),
            Rule::Contrast => ("1.4.3", "Contrast (Minimum)"),
            Rule::ImageName => ("1.1.1", "Non-text Content"),
            Rule::Keyboard => ("2.1.1", "Keyboard"),
            Rule::FocusOrder => ("2.4.3", "Focus Order"),
        }
    }

    /// How much a finding of this rule matters.
    pub fn impact(self) -> Impact {
        match self {
            Rule::Name | Rule::ImageName | Rule::Keyboard => Impact::Critical,
            Rule::Contrast | Rule::TargetSize => Impact::Serious,
            Rule::FocusOrder => Impact::Moderate,
        }
    }

    /// The rule a word names.
    pub fn parse(word: &str) -> Option<Rule> {
        Rule::ALL.into_iter().find(|r| r.as_str() == word)
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Impact {
    /// The impact's word on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            Impact::Critical => "critical",
            Impact::Serious => "serious",
            Impact::Moderate => "moderate",
        }
    }
}

impl fmt::Display for Impact {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One finding: the rule a node breaks, what was measured, and the node's line (as `get` and
/// `find` print it):
///
/// ```text
/// contrast 1.4.3 serious "2.9:1 (text #8c8c8c on #1b1b1b); 4.5:1 needed for 12 px text (line height)" @e30 text "Hint" bounds=10,20,100x16
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Finding {
    /// The rule.
    pub rule: Rule,
    /// What was measured or missing, in words: a ratio, a size, the missing name.
    pub evidence: String,
    /// The node.
    pub node: NodeLine,
}

const FINDING_HINT: &str = "a finding is `RULE CRITERION IMPACT \"EVIDENCE\" NODE-LINE`: contrast 1.4.3 serious \"2.9:1 ...\" @e30 text \"Hint\"";

impl Finding {
    /// Parses one finding line.
    pub fn parse(line: &str) -> Result<Finding, ParseError> {
        let bad = || malformed("audit finding", line, FINDING_HINT);
        let tokens = tokenize(line)?;
        let [rule, criterion, impact, evidence, node, ..] = tokens.as_slice() else {
            return Err(bad());
        };
        let rule = Rule::parse(&rule.bare).ok_or_else(bad)?;
        if criterion.bare != rule.criterion().0 || impact.bare != rule.impact().as_str() {
            return Err(bad());
        }
        let evidence = match (&evidence.bare[..], &evidence.quoted) {
            ("", Some(text)) => text.clone(),
            _ => return Err(bad()),
        };
        let node = NodeLine::parse(&line[node.offset..]).ok_or_else(bad)?;
        Ok(Finding {
            rule,
            evidence,
            node,
        })
    }
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {} {} {} {}",
            self.rule,
            self.rule.criterion().0,
            self.rule.impact(),
            quote(&self.evidence),
            self.node
        )
    }
}

/// A rule that could not run, and why: it is never reported as clean.
///
/// ```text
/// not-run contrast "this app answers screenshots itself: the plugin holds no pixels to measure"
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotRun {
    /// The rule.
    pub rule: Rule,
    /// Why it did not run.
    pub why: String,
}

impl fmt::Display for NotRun {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "not-run {} {}", self.rule, quote(&self.why))
    }
}

/// What the audit looked at: how many nodes each kind of rule checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Checked {
    /// Controls (the nodes `snapshot -i` prints): name and target size.
    pub controls: usize,
    /// Texts whose contrast was measured.
    pub texts: usize,
    /// Texts whose contrast could not be measured (one colour inside their bounds, or bounds
    /// outside the frame): neither passed nor failed.
    pub unmeasured: usize,
    /// Images.
    pub images: usize,
}

/// The body of an `audit` answer, after the `frame N` line every app-side answer starts with:
///
/// ```text
/// audit window=1 findings=2 rules=name,target-size,contrast,image-name controls=23 texts=41 unmeasured=2 images=2
/// not-run contrast "this app answers screenshots itself (Builder::app_screenshots): the plugin holds no pixels to measure"
/// unmeasured @e40
/// name 4.1.2 critical "no name and no label" @e12 button bounds=10,20,14x14 actions=click,focus
/// ```
///
/// `rules=` names the rules asked for; a rule among them that could not run has a `not-run` line
/// (it is never clean). With a scope the first line says `scope=@eN` after the window. The findings are in tree
/// order, rule by rule as [`Rule::ALL`] lists them.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct AuditAnswer {
    /// The frame whose tree (and pixels) were audited.
    pub frame: u64,
    /// The window audited.
    pub window: u64,
    /// The subtree audited, when the command named one.
    pub scope: Option<NodeRef>,
    /// The rules asked for, in [`Rule::ALL`]'s order: without `--keyboard`, all but `keyboard`
    /// and `focus-order`.
    pub rules: Vec<Rule>,
    /// What was checked.
    pub checked: Checked,
    /// The rules that could not run.
    pub not_run: Vec<NotRun>,
    /// The texts whose contrast could not be measured (`unmeasured @e40 @e64`), neither passed
    /// nor failed.
    pub unmeasured_texts: Vec<NodeRef>,
    /// The findings.
    pub findings: Vec<Finding>,
}

const HINT: &str = "an audit answer is `frame N`, `audit window=N findings=N ...`, then `not-run RULE \"WHY\"` and finding lines";

impl AuditAnswer {
    /// Whether nothing was found and every rule asked for ran.
    pub fn is_clean(&self) -> bool {
        self.findings.is_empty() && self.not_run.is_empty()
    }

    /// Parses the body of an `audit` answer.
    pub fn parse(body: &str) -> Result<AuditAnswer, ParseError> {
        let mut answer = AuditAnswer::default();
        let (mut frame, mut header) = (None, false);
        for line in body.lines() {
            let bad = || malformed("audit answer line", line, HINT);
            match line.split_once(' ') {
                Some(("frame", n)) => frame = Some(n.parse().map_err(|_| bad())?),
                Some(("audit", rest)) => {
                    header_fields(&mut answer, rest).ok_or_else(bad)?;
                    header = true;
                }
                Some(("not-run", rest)) => {
                    let tokens = tokenize(rest)?;
                    let [rule, why] = tokens.as_slice() else {
                        return Err(bad());
                    };
                    answer.not_run.push(NotRun {
                        rule: Rule::parse(&rule.bare).ok_or_else(bad)?,
                        why: why.quoted.clone().ok_or_else(bad)?,
                    });
                }
                Some(("unmeasured", refs)) => {
                    for r in refs.split(' ') {
                        answer
                            .unmeasured_texts
                            .push(NodeRef::parse(r).ok_or_else(bad)?);
                    }
                }
                Some((word, _)) if Rule::parse(word).is_some() => {
                    answer.findings.push(Finding::parse(line)?);
                }
                // A newer app's line.
                _ => {}
            }
        }
        answer.frame = frame.ok_or_else(|| malformed("audit answer: no frame", body, HINT))?;
        if !header {
            return Err(malformed("audit answer: no audit line", body, HINT));
        }
        Ok(answer)
    }

    /// The answer as one JSON object (the CLI's `audit --json`): the same fields, the findings'
    /// nodes as their ref, role, name and bounds, and the line as written.
    pub fn to_json(&self) -> String {
        let mut out = format!(
            "{{\"frame\":{},\"window\":{},\"scope\":{},\"clean\":{},\"rules\":[{}],\"checked\":{{\"controls\":{},\"texts\":{},\"unmeasured\":{},\"images\":{}}},\"not_run\":[",
            self.frame,
            self.window,
            self.scope
                .map_or("null".to_owned(), |r| quote(&r.to_string())),
            self.is_clean(),
            self.rules
                .iter()
                .map(|r| quote(r.as_str()))
                .collect::<Vec<_>>()
                .join(","),
            self.checked.controls,
            self.checked.texts,
            self.checked.unmeasured,
            self.checked.images,
        );
        for (i, n) in self.not_run.iter().enumerate() {
            let comma = if i > 0 { "," } else { "" };
            out += &format!(
                "{comma}{{\"rule\":{},\"why\":{}}}",
                quote(n.rule.as_str()),
                quote(&n.why)
            );
        }
        out.push_str("],\"unmeasured\":[");
        let refs: Vec<String> = self
            .unmeasured_texts
            .iter()
            .map(|r| quote(&r.to_string()))
            .collect();
        out.push_str(&refs.join(","));
        out.push_str("],\"findings\":[");
        for (i, f) in self.findings.iter().enumerate() {
            let comma = if i > 0 { "," } else { "" };
            let (number, title) = f.rule.criterion();
            let bounds = f.node.bounds.map_or("null".to_owned(), |[x, y, w, h]| {
                format!("[{x},{y},{w},{h}]")
            });
            out += &format!(
                "{comma}{{\"rule\":{},\"wcag\":{},\"criterion\":{},\"impact\":{},\"evidence\":{},\"ref\":{},\"role\":{},\"name\":{},\"bounds\":{bounds},\"line\":{}}}",
                quote(f.rule.as_str()),
                quote(number),
                quote(title),
                quote(f.rule.impact().as_str()),
                quote(&f.evidence),
                quote(&f.node.r#ref.to_string()),
                quote(&f.node.role),
                quote(&f.node.name),
                quote(&f.node.to_string()),
            );
        }
        out.push_str("]}");
        out
    }
}

/// Reads the fields of the `audit` line into `answer`.
fn header_fields(answer: &mut AuditAnswer, rest: &str) -> Option<()> {
    for field in rest.split(' ') {
        let (key, value) = field.split_once('=')?;
        let count = || value.parse::<usize>().ok();
        match key {
            "window" => answer.window = value.parse().ok()?,
            "scope" => answer.scope = Some(NodeRef::parse(value)?),
            "rules" => {
                answer.rules = value
                    .split(',')
                    .filter(|r| !r.is_empty())
                    .map(Rule::parse)
                    .collect::<Option<_>>()?;
            }
            "controls" => answer.checked.controls = count()?,
            "texts" => answer.checked.texts = count()?,
            "unmeasured" => answer.checked.unmeasured = count()?,
            "images" => answer.checked.images = count()?,
            // `findings=` is the findings' count, read from their lines; a newer app's field.
            _ => {}
        }
    }
    Some(())
}

impl fmt::Display for AuditAnswer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "frame {}", self.frame)?;
        write!(f, "audit window={}", self.window)?;
        if let Some(scope) = self.scope {
            write!(f, " scope={scope}")?;
        }
        let c = self.checked;
        let rules: Vec<&str> = self.rules.iter().map(|r| r.as_str()).collect();
        writeln!(
            f,
            " findings={} rules={} controls={} texts={} unmeasured={} images={}",
            self.findings.len(),
            rules.join(","),
            c.controls,
            c.texts,
            c.unmeasured,
            c.images
        )?;
        for n in &self.not_run {
            writeln!(f, "{n}")?;
        }
        if !self.unmeasured_texts.is_empty() {
            f.write_str("unmeasured")?;
            for r in &self.unmeasured_texts {
                write!(f, " {r}")?;
            }
            writeln!(f)?;
        }
        for finding in &self.findings {
            writeln!(f, "{finding}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> AuditAnswer {
        let node = |text: &str| NodeLine::parse(text).unwrap();
        AuditAnswer {
            frame: 412,
            window: 1,
            scope: Some(NodeRef(5)),
            rules: Rule::ALL.to_vec(),
            checked: Checked {
                controls: 23,
                texts: 41,
                unmeasured: 2,
                images: 2,
            },
            not_run: vec![NotRun {
                rule: Rule::Keyboard,
                why: "Tab focused nothing: the window may not take keys".into(),
            }],
            unmeasured_texts: vec![NodeRef(40), NodeRef(64)],
            findings: vec![
                Finding {
                    rule: Rule::Name,
                    evidence: "no name and no label".into(),
                    node: node("@e12 button bounds=10,20,14x14 actions=click,focus"),
                },
                Finding {
                    rule: Rule::Contrast,
                    evidence: "2.9:1 (text #8c8c8c on #1b1b1b) \"quoted\"".into(),
                    node: node(r#"@e30 text "Hint \"x\"" bounds=10,20,100x16"#),
                },
            ],
        }
    }

    #[test]
    fn an_audit_answer_is_written_and_parsed_back() {
        let answer = sample();
        let text = answer.to_string();
        assert_eq!(
            text.lines().nth(1),
            Some(
                "audit window=1 scope=@e5 findings=2 rules=name,target-size,contrast,image-name,keyboard,focus-order controls=23 texts=41 unmeasured=2 images=2"
            )
        );
        assert_eq!(text.lines().nth(3), Some("unmeasured @e40 @e64"));
        assert_eq!(
            text.lines().nth(4),
            Some(
                r#"name 4.1.2 critical "no name and no label" @e12 button bounds=10,20,14x14 actions=click,focus"#
            )
        );
        assert_eq!(AuditAnswer::parse(&text).unwrap(), answer);
        assert!(!answer.is_clean());
        let json = answer.to_json();
        assert!(json.contains(r#""rule":"contrast","wcag":"1.4.3","criterion":"Contrast (Minimum)","impact":"serious""#), "{json}");
        assert!(json.contains(r#""bounds":[10,20,14,14]"#), "{json}");
    }

    #[test]
    fn a_finding_whose_criterion_or_impact_does_not_match_its_rule_is_refused() {
        let good = r#"name 4.1.2 critical "no name" @e1 button"#;
        assert!(Finding::parse(good).is_ok());
        for bad in [
            r#"name 1.4.3 critical "no name" @e1 button"#,
            r#"name 4.1.2 minor "no name" @e1 button"#,
            r#"name 4.1.2 critical no-name @e1 button"#,
            r#"name 4.1.2 critical "no name""#,
            r#"nome 4.1.2 critical "no name" @e1 button"#,
        ] {
            let e = Finding::parse(bad).unwrap_err();
            assert_eq!(e.code, crate::ErrorCode::BadSyntax, "{bad}");
        }
    }

    #[test]
    fn an_answer_without_its_audit_line_is_refused_and_a_newer_line_skipped() {
        assert!(AuditAnswer::parse("frame 3\n").is_err());
        let parsed =
            AuditAnswer::parse("frame 3\naudit window=2 findings=0 rules=name newer=1\nhint x\n");
        let parsed = parsed.unwrap();
        assert_eq!(
            (parsed.window, parsed.rules.as_slice()),
            (2, &[Rule::Name][..])
        );
        assert!(parsed.is_clean());
        assert!(AuditAnswer::parse("frame 3\naudit window=2 rules=name,nome\n").is_err());
    }
}

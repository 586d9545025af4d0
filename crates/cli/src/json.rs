//! The global `--json`: an app's response as one JSON object, with the typed answer beside the
//! body where the verb has one (`audit`'s findings).

use winit_automation_protocol::{AuditAnswer, Outcome, Response, Verb, quote};

/// The response as one line of JSON: `ok`, `seq`, `verb` and `body` (and an error's `code`,
/// `message` and `hint`); an `audit` answer also as `"audit": {...}` ([`AuditAnswer::to_json`]:
/// what was checked, the rules not run, each finding's rule, criterion, impact, evidence and
/// node), when its body reads.
pub(crate) fn response(r: &Response) -> String {
    match &r.outcome {
        Outcome::Ok { body } => {
            let typed = match Verb::parse(&r.verb) {
                Some(Verb::Audit) => AuditAnswer::parse(body)
                    .ok()
                    .map(|a| format!(",\"audit\":{}", a.to_json())),
                _ => None,
            };
            format!(
                "{{\"ok\":true,\"seq\":{},\"verb\":{},\"body\":{}{}}}",
                r.seq,
                quote(&r.verb),
                quote(body),
                typed.unwrap_or_default()
            )
        }
        Outcome::Error {
            code,
            message,
            hint,
            body,
        } => format!(
            "{{\"ok\":false,\"seq\":{},\"verb\":{},\"code\":{},\"message\":{},\"hint\":{},\"body\":{}}}",
            r.seq,
            quote(&r.verb),
            quote(code),
            quote(message),
            quote(hint),
            quote(body)
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    const AUDIT: &str = "frame 9\naudit window=1 scope=@e5 findings=2 controls=3 texts=4 unmeasured=0 images=1\nnot-run contrast \"this app answers screenshots itself: the plugin holds no pixels to measure\"\nname 4.1.2 critical \"no name and no label\" @e12 button bounds=10,20,14x14 actions=click,focus\nimage-name 1.1.1 critical \"no name\" @e13 image \"\" bounds=0,0,32x32\n";

    fn parsed(r: &Response) -> Value {
        let text = response(r);
        assert!(!text.contains('\n'), "{text}");
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"))
    }

    #[test]
    fn an_audit_answer_carries_its_findings_as_json_beside_the_body() {
        let v = parsed(&Response::ok(4, Some(Verb::Audit), AUDIT));
        assert_eq!(v["ok"], true);
        assert_eq!(v["verb"], "audit");
        assert_eq!(v["body"], AUDIT);
        let audit = &v["audit"];
        assert_eq!(audit["frame"], 9);
        assert_eq!(audit["scope"], "@e5");
        assert_eq!(audit["clean"], false);
        assert_eq!(audit["checked"]["controls"], 3);
        assert_eq!(audit["not_run"][0]["rule"], "contrast");
        let findings = audit["findings"].as_array().unwrap();
        assert_eq!(findings.len(), 2);
        let first = &findings[0];
        assert_eq!(first["rule"], "name");
        assert_eq!(first["wcag"], "4.1.2");
        assert_eq!(first["criterion"], "Name, Role, Value");
        assert_eq!(first["impact"], "critical");
        assert_eq!(first["evidence"], "no name and no label");
        assert_eq!(first["ref"], "@e12");
        assert_eq!(first["role"], "button");
        assert_eq!(first["bounds"], serde_json::json!([10, 20, 14, 14]));
        assert_eq!(
            first["line"],
            "@e12 button bounds=10,20,14x14 actions=click,focus"
        );
        assert_eq!(findings[1]["rule"], "image-name");
    }

    #[test]
    fn another_verb_or_an_audit_body_that_does_not_read_has_the_body_alone() {
        let v = parsed(&Response::ok(5, Some(Verb::Status), "frame 3\n"));
        assert_eq!(v["body"], "frame 3\n");
        assert!(v.get("audit").is_none());
        let v = parsed(&Response::ok(6, Some(Verb::Audit), "frame 3\n"));
        assert!(v.get("audit").is_none(), "{v}");
        let v = parsed(&Response::ok(7, Some(Verb::Find), AUDIT));
        assert!(v.get("audit").is_none(), "{v}");
    }

    #[test]
    fn an_error_keeps_its_code_message_and_hint() {
        let failure = winit_automation_protocol::Failure::new(
            winit_automation_protocol::ErrorCode::NotFound,
            "no node matches role=dialog",
            "take a snapshot",
        );
        let v = parsed(&Response::error(8, Some(Verb::Audit), failure));
        assert_eq!(v["ok"], false);
        assert_eq!(v["code"], "not_found");
        assert_eq!(v["message"], "no node matches role=dialog");
        assert!(v.get("audit").is_none());
    }
}

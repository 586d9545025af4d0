//! The data of a trace file (docs/protocol.md section 6.6): the JSON in its `trace-data` element,
//! and its steps, for the tests that read traces.

/// The trace's JSON, from the HTML file's text.
pub fn trace_data(html: &str) -> serde_json::Value {
    let start = html.find(r#"id="trace-data">"#).expect("the data element") + 16;
    let end = start + html[start..].find("</script>").expect("its end");
    serde_json::from_str(&html[start..end]).expect("the trace's data is JSON")
}

/// The first step of a trace's data whose verb is `verb`.
#[track_caller]
pub fn first_step<'a>(data: &'a serde_json::Value, verb: &str) -> &'a serde_json::Value {
    data["steps"]
        .as_array()
        .expect("the trace's steps")
        .iter()
        .find(|s| s["verb"] == verb)
        .unwrap_or_else(|| panic!("no {verb} step: {data:#}"))
}

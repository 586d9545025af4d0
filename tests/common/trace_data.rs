//! The data of a trace file (docs/protocol.md section 6.6): the JSON in its `trace-data` element.
//! Included with `#[path = "common/trace_data.rs"] mod trace_data;` by the tests that read traces.

/// The trace's JSON, from the HTML file's text.
pub fn trace_data(html: &str) -> serde_json::Value {
    let start = html.find(r#"id="trace-data">"#).expect("the data element") + 16;
    let end = start + html[start..].find("</script>").expect("its end");
    serde_json::from_str(&html[start..end]).expect("the trace's data is JSON")
}

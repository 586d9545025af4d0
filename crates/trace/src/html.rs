//! `trace stop FILE`: the trace as one self-contained HTML file, the viewer (`viewer.html`, its
//! script and styles inline) with the trace's JSON in its `trace-data` element and each kept
//! frame as a `data:` URL. Nothing is loaded from anywhere else when the file is opened.

use std::io::{BufWriter, Write};
use std::path::Path;

use base64::engine::general_purpose::STANDARD;
use serde_json::{Value, json};

use super::{Step, Trace};

/// The viewer, with [`PLACEHOLDER`] where the data goes.
const VIEWER: &str = include_str!("viewer.html");
const PLACEHOLDER: &str = r#"{"trace":"placeholder"}"#;
/// The version of the JSON the viewer reads (its `format` field).
const FORMAT: u32 = 1;

/// Writes the trace to `file` (through a temporary file beside it, renamed over it); returns
/// the bytes written. The frames are base64-encoded as they are written, never held twice.
pub fn write_html(trace: &Trace, app: &str, file: &Path) -> std::io::Result<u64> {
    let dir = file.parent().unwrap_or(Path::new("."));
    // A document to open and share, not a secret: the usual mode, less the umask (tempfile's own
    // is 0600).
    #[cfg(unix)]
    let tmp = tempfile::Builder::new()
        .permissions(std::os::unix::fs::PermissionsExt::from_mode(0o644))
        .tempfile_in(dir)?;
    // Windows has no mode: a new file inherits its directory's ACL, as any file written there.
    #[cfg(not(unix))]
    let tmp = tempfile::NamedTempFile::new_in(dir)?;
    let mut out = Counted {
        inner: BufWriter::new(tmp),
        bytes: 0,
    };
    page(trace, app, &mut out)?;
    let bytes = out.bytes;
    let tmp = out.inner.into_inner().map_err(|e| e.into_error())?;
    tmp.persist(file).map_err(|e| e.error)?;
    Ok(bytes)
}

/// The whole page: the viewer, with the data where its placeholder is.
fn page(trace: &Trace, app: &str, out: &mut impl Write) -> std::io::Result<()> {
    let (head, tail) = VIEWER
        .split_once(PLACEHOLDER)
        .expect("the viewer has its placeholder");
    out.write_all(head.as_bytes())?;
    // `{"images":[...],` then the rest of the object. In a script element only `</script>` and
    // `<!--` matter, both of which start with `<`; JSON has `<` inside strings only, where
    // `\u003c` means the same. Base64 and numbers have none.
    out.write_all(b"{\"images\":[")?;
    for (i, image) in trace.frames.kept.iter().enumerate() {
        if i > 0 {
            out.write_all(b",")?;
        }
        write!(
            out,
            "{{\"width\":{},\"height\":{},\"scale\":{},\"src\":\"data:image/png;base64,",
            image.width,
            image.height,
            Value::from(image.scale)
        )?;
        {
            let mut encoder = base64::write::EncoderWriter::new(&mut *out, &STANDARD);
            encoder.write_all(&image.png)?;
            encoder.finish()?;
        }
        out.write_all(b"\"}")?;
    }
    out.write_all(b"],")?;
    let rest = data(trace, app).to_string().replace('<', "\\u003c");
    // Without its `{`, which the images opened.
    out.write_all(&rest.as_bytes()[1..])?;
    out.write_all(tail.as_bytes())
}

/// A writer that counts what passes.
struct Counted<W> {
    inner: W,
    bytes: u64,
}

impl<W: Write> Write for Counted<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.bytes += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// The trace's data but its frames.
fn data(trace: &Trace, app: &str) -> Value {
    json!({
        "format": FORMAT,
        "app": app,
        "started_unix_ms": trace.started_unix_ms,
        "duration_ms": trace.started.elapsed().as_secs_f64() * 1000.0,
        "screenshots": trace.screenshots,
        "images_dropped": trace.frames.dropped,
        "steps_dropped": trace.steps_dropped,
        "note": trace.note,
        "steps": trace.steps.iter().map(step).collect::<Vec<_>>(),
    })
}

fn step(s: &Step) -> Value {
    json!({
        "index": s.index,
        "command": s.command,
        "named": s.named,
        "verb": s.verb,
        "ok": s.code.is_none(),
        "code": s.code,
        "answer": s.answer,
        "start_ms": s.start_ms,
        "end_ms": s.end_ms,
        "clock_ms": s.clock_ms,
        "frame": s.frame,
        "targets": s.targets.iter().map(|t| json!({
            "end": t.end.map(|e| e.word()),
            "selector": t.selector,
            "bounds": t.bounds,
        })).collect::<Vec<_>>(),
        "pointer": s.path.last().map(|(x, y)| [x, y]),
        "path": s.path.iter().map(|(x, y)| [x, y]).collect::<Vec<_>>(),
        "findings": s.findings.iter().map(|f| json!({
            "rule": f.rule.as_str(),
            "wcag": f.rule.criterion().0,
            "impact": f.rule.impact().as_str(),
            "evidence": f.evidence,
            "node": f.node.to_string(),
            "bounds": f.node.bounds,
        })).collect::<Vec<_>>(),
        "diff": s.diff.iter().map(|(tag, line)| json!([tag.to_string(), line])).collect::<Vec<_>>(),
        "image": s.image,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_viewer_has_one_placeholder_and_markup_in_the_data_stays_text() {
        assert_eq!(VIEWER.matches(PLACEHOLDER).count(), 1);
        let mut trace = Trace::new(1, false, String::new(), String::new(), 0, 0);
        trace.steps.push(Step {
            index: 1,
            command: "type \"</script><!--<script>\"".into(),
            named: "type \"</script><!--<script>\"".into(),
            verb: "type".into(),
            code: None,
            answer: "ok\n".into(),
            start_ms: 0.0,
            end_ms: 1.0,
            clock_ms: None,
            frame: Some(3),
            targets: Vec::new(),
            path: Vec::new(),
            findings: Vec::new(),
            diff: vec![('+', "@e1 textbox \"</script>\"".into())],
            image: None,
        });
        trace.frames.kept.push(super::super::frames::Image {
            png: b"not really a png".to_vec(),
            width: 2,
            height: 1,
            scale: 0.5,
        });
        let mut page = Vec::new();
        super::page(&trace, "app", &mut page).unwrap();
        let page = String::from_utf8(page).unwrap();
        // The data's markup never closes the element it sits in.
        assert_eq!(
            page.matches("</script>").count(),
            VIEWER.matches("</script>").count()
        );
        let start = page.find(r#"id="trace-data">"#).expect("the data element") + 16;
        let end = start + page[start..].find("</script>").expect("its end");
        let json: Value = serde_json::from_str(&page[start..end]).expect("JSON");
        assert_eq!(
            json["steps"][0]["command"],
            "type \"</script><!--<script>\""
        );
        assert_eq!(json["steps"][0]["diff"][0][0], "+");
        assert_eq!(json["images"][0]["width"], 2);
        assert_eq!(json["images"][0]["scale"], 0.5);
        assert_eq!(
            json["images"][0]["src"],
            "data:image/png;base64,bm90IHJlYWxseSBhIHBuZw=="
        );
    }
}

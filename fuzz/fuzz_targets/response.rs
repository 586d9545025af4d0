//! `Response::parse` on a response file's text never panics, and what it accepts is written back
//! (`to_text`) to text that parses to the same response.
#![no_main]

use libfuzzer_sys::fuzz_target;
use winit_automation_protocol::Response;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(response) = Response::parse(text) {
        let written = response.to_text();
        assert_eq!(
            Response::parse(&written).as_ref(),
            Ok(&response),
            "written {written:?}"
        );
        // The typed views never panic either.
        let _ = (response.frame(), response.failure(), response.error_text());
    }
});

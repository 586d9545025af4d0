//! The drop-box's entry-name readers (what `queue::scan` and the screenshot list call on every
//! name in the directory): each never panics, at most one of the seq readers accepts a name, and
//! an accepted name is exactly the canonical name of what was read from it.
#![no_main]

use libfuzzer_sys::fuzz_target;
use winit_automation_protocol::{
    Label, command_file, parse_command_file, parse_response_file, parse_seq, parse_taken_file,
    parse_withdrawn_file, response_file, taken_file, withdrawn_file,
};

fuzz_target!(|data: &[u8]| {
    let Ok(name) = std::str::from_utf8(data) else {
        return;
    };
    let readers: [(fn(&str) -> Option<u64>, fn(u64) -> String); 4] = [
        (parse_command_file, command_file),
        (parse_taken_file, taken_file),
        (parse_withdrawn_file, withdrawn_file),
        (parse_response_file, response_file),
    ];
    let mut accepted = 0;
    for (read, write) in readers {
        if let Some(seq) = read(name) {
            accepted += 1;
            assert_eq!(write(seq), name, "seq {seq}");
        }
    }
    assert!(accepted <= 1, "{name:?} read as {accepted} kinds of entry");
    if let Some(seq) = parse_seq(name) {
        assert_eq!(seq.to_string(), name);
    }
    if let Some(label) = Label::from_file_name(name) {
        assert_eq!(label.file_name(), name);
        assert_eq!(Label::new(label.as_str()).as_ref(), Ok(&label));
    }
    if let Ok(label) = Label::new(name) {
        assert_eq!(label.as_str(), name);
        assert_eq!(Label::from_file_name(&label.file_name()), Some(label));
    }
});

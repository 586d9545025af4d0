//! The command grammar on a command file's raw bytes: `Command::parse_bytes` and
//! `Envelope::parse_bytes` never panic, and what they accept round-trips through its canonical
//! line.
#![no_main]

use libfuzzer_sys::fuzz_target;
use winit_automation_protocol::{Command, Envelope};

const MAX: usize = Command::DEFAULT_MAX_BYTES;

fuzz_target!(|data: &[u8]| {
    let command = Command::parse_bytes(data, MAX);
    let envelope = Envelope::parse_bytes(data, MAX);
    if let Ok(command) = &command {
        let line = command.to_line();
        let again = Command::parse(&line);
        assert_eq!(again.as_ref(), Ok(command), "canonical line {line:?}");
        assert_eq!(command.to_string(), line, "Display is the canonical line");
        let file = format!("{line}\n");
        assert_eq!(
            Command::parse_bytes(file.as_bytes(), usize::MAX).as_ref(),
            Ok(command)
        );
        // A command without a deadline is an envelope without one.
        let envelope = envelope.as_ref().expect("a command is an envelope");
        assert_eq!(&envelope.command, command);
        assert_eq!(envelope.deadline_unix_ms, None);
    }
    if let Ok(envelope) = &envelope {
        let line = envelope.to_line();
        assert_eq!(
            Envelope::parse(&line).as_ref(),
            Ok(envelope),
            "canonical line {line:?}"
        );
        if envelope.deadline_unix_ms.is_none() {
            assert_eq!(command.as_ref(), Ok(&envelope.command));
        }
    }
});

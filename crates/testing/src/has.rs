//! What an expectation asks of a node beyond matching a [`By`](super::By): [`Has`], its value and
//! state words, as a script's `expect` line says them. [`App::expect`](super::App::expect) waits
//! for it.

use std::fmt;

use winit_automation_protocol::quote;

/// A node's value and state words, waited for by [`App::expect`](super::App::expect) as a
/// script's `expect SELECTOR value="V" STATE...` waits for them (up to 5 s).
///
/// ```
/// use winit_automation_testing::Has;
/// let has = Has::value("53 years").and_state("focused");
/// assert_eq!(has.to_string(), r#"value="53 years" focused"#);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[must_use]
pub struct Has {
    pub(crate) value: Option<String>,
    pub(crate) states: Vec<String>,
}

impl Has {
    /// Its value is exactly this (`""` for none).
    pub fn value(value: &str) -> Has {
        Has::default().and_value(value)
    }

    /// Its line has this state word: `checked`, `focused`, `expanded`, ... (the words node lines
    /// print: [`crate::script::STATES`]).
    pub fn state(state: &str) -> Has {
        Has::default().and_state(state)
    }

    /// And its value is exactly this.
    pub fn and_value(mut self, value: &str) -> Has {
        self.value = Some(value.to_owned());
        self
    }

    /// And its line has this state word.
    pub fn and_state(mut self, state: &str) -> Has {
        self.states.push(state.to_owned());
        self
    }
}

impl fmt::Display for Has {
    /// As an `expect` line writes them: `value="V" STATE...`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut words: Vec<String> = self
            .value
            .iter()
            .map(|v| format!("value={}", quote(v)))
            .collect();
        words.extend(self.states.iter().cloned());
        f.write_str(&words.join(" "))
    }
}

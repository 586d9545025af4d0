//! Short role names, as snapshots print them and `role=` selectors match them.
//!
//! Common roles get the short ARIA-like names people and agents already know (`button`, `checkbox`,
//! `textbox`, `text`); every other role is its AccessKit name in lowercase (`Role::ScrollView` is
//! `scrollview`). A `role=` selector value must be one of these names ([`check_role`]): a typo is
//! refused with the nearest names, never matched against nothing.

use std::borrow::Cow;
use std::sync::OnceLock;

use super::lexer::quote;
use super::{ErrorCode, ParseError};

use accesskit::Role;

/// The short name of a role.
pub fn role_name(role: Role) -> Cow<'static, str> {
    Cow::Borrowed(match role {
        Role::Button | Role::DefaultButton => "button",
        Role::CheckBox => "checkbox",
        Role::RadioButton => "radio",
        Role::Switch => "switch",
        Role::TextInput
        | Role::SearchInput
        | Role::EmailInput
        | Role::PasswordInput
        | Role::PhoneNumberInput
        | Role::UrlInput => "textbox",
        Role::MultilineTextInput => "textarea",
        Role::NumberInput => "number",
        Role::Label | Role::TextRun | Role::Paragraph => "text",
        Role::GenericContainer => "group",
        Role::ListItem => "listitem",
        Role::ListBoxOption => "option",
        Role::MenuItem => "menuitem",
        Role::ComboBox | Role::EditableComboBox => "combobox",
        Role::ProgressIndicator => "progressbar",
        Role::ScrollView => "scrollview",
        Role::ScrollBar => "scrollbar",
        Role::Unknown => "unknown",
        // Spelled out so the common ones cost no allocation.
        Role::Group => "group",
        Role::Window => "window",
        Role::Dialog => "dialog",
        Role::AlertDialog => "alertdialog",
        Role::List => "list",
        Role::ListBox => "listbox",
        Role::Slider => "slider",
        Role::Link => "link",
        Role::Image => "image",
        Role::Heading => "heading",
        Role::Menu => "menu",
        Role::MenuBar => "menubar",
        Role::Tab => "tab",
        Role::TabList => "tablist",
        Role::TabPanel => "tabpanel",
        Role::Toolbar => "toolbar",
        Role::Table => "table",
        Role::Row => "row",
        Role::Cell => "cell",
        Role::Tree => "tree",
        Role::TreeItem => "treeitem",
        other => return Cow::Owned(format!("{other:?}").to_ascii_lowercase()),
    })
}

/// Every role name a snapshot can print, sorted, each once.
pub fn role_names() -> &'static [Cow<'static, str>] {
    static NAMES: OnceLock<Vec<Cow<'static, str>>> = OnceLock::new();
    NAMES.get_or_init(|| {
        let mut names: Vec<Cow<'static, str>> =
            (0..=u8::MAX).filter_map(Role::n).map(role_name).collect();
        names.sort_unstable();
        names.dedup();
        names
    })
}

/// Checks a `role=` value: one of [`role_names`], else `bad_argument` with the nearest names.
pub fn check_role(value: &str) -> Result<(), ParseError> {
    let names = role_names();
    if names.binary_search_by(|n| n.as_ref().cmp(value)).is_ok() {
        return Ok(());
    }
    let mut near: Vec<(usize, &str)> = names
        .iter()
        .map(|n| (strsim::damerau_levenshtein(value, n), n.as_ref()))
        .collect();
    near.sort_unstable();
    let close: Vec<&str> = near
        .iter()
        .take(3)
        .filter(|(d, _)| *d <= 3.max(value.len() / 2))
        .map(|(_, n)| *n)
        .collect();
    let hint = if close.is_empty() {
        "role= takes a role name as snapshots print it, e.g. button, checkbox, textbox, text, slider; `winit-automation snapshot --raw` shows every node's role".to_owned()
    } else {
        format!(
            "did you mean {}? role= takes a role name as snapshots print it",
            close
                .iter()
                .map(|n| format!("role={n}"))
                .collect::<Vec<_>>()
                .join(" or ")
        )
    };
    Err(ParseError::new(
        ErrorCode::BadArgument,
        format!("unknown role {}", quote(value)),
        hint,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_printed_role_name_is_known_and_a_typo_is_refused_with_the_nearest() {
        for name in [
            "button",
            "checkbox",
            "textbox",
            "text",
            "titlebar",
            "scrollview",
            "window",
        ] {
            assert!(check_role(name).is_ok(), "{name}");
        }
        let e = check_role("buton").unwrap_err();
        assert_eq!(e.code, ErrorCode::BadArgument);
        assert_eq!(e.message, "unknown role \"buton\"");
        assert!(e.hint.starts_with("did you mean role=button"), "{}", e.hint);
        let e = check_role("zzzzzzzzzzzzzzzz").unwrap_err();
        assert!(e.hint.contains("snapshot --raw"), "{}", e.hint);
    }

    #[test]
    fn common_roles_have_short_names_and_others_their_lowercase_name() {
        assert_eq!(role_name(Role::Button), "button");
        assert_eq!(role_name(Role::TextInput), "textbox");
        assert_eq!(role_name(Role::Label), "text");
        assert_eq!(role_name(Role::Dialog), "dialog");
        assert_eq!(role_name(Role::TabList), "tablist");
    }
}

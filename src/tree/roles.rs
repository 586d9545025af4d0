//! Short role names, as snapshots print them and `role=` selectors match them.
//!
//! Common roles get the short ARIA-like names people and agents already know (`button`, `checkbox`,
//! `textbox`, `text`); every other role is its AccessKit name in lowercase (`Role::ScrollView` is
//! `scrollview`).

use std::borrow::Cow;

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn common_roles_have_short_names_and_others_their_lowercase_name() {
        assert_eq!(role_name(Role::Button), "button");
        assert_eq!(role_name(Role::TextInput), "textbox");
        assert_eq!(role_name(Role::Label), "text");
        assert_eq!(role_name(Role::Dialog), "dialog");
        assert_eq!(role_name(Role::TabList), "tablist");
    }
}

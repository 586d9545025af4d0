//! The AccessKit actions `action` can request, by their snake_case protocol names.
//!
//! One table, in the order snapshots list a node's actions (`actions=click,focus,...`): the common
//! ones first. Parsing, the `actions are ...` hint and the snapshot all read it.

macro_rules! actions {
    ($($variant:ident => $name:literal,)*) => {
        /// Every action with its protocol name, in the order snapshots list them.
        pub const ACTIONS: &[(accesskit::Action, &str)] = &[$((accesskit::Action::$variant, $name),)*];
    };
}

actions! {
    Click => "click",
    Focus => "focus",
    Blur => "blur",
    SetValue => "set_value",
    ReplaceSelectedText => "replace_selected_text",
    SetTextSelection => "set_text_selection",
    Increment => "increment",
    Decrement => "decrement",
    Expand => "expand",
    Collapse => "collapse",
    ScrollIntoView => "scroll_into_view",
    ScrollUp => "scroll_up",
    ScrollDown => "scroll_down",
    ScrollLeft => "scroll_left",
    ScrollRight => "scroll_right",
    ScrollToPoint => "scroll_to_point",
    SetScrollOffset => "set_scroll_offset",
    ShowContextMenu => "show_context_menu",
    ShowTooltip => "show_tooltip",
    HideTooltip => "hide_tooltip",
    CustomAction => "custom_action",
    SetSequentialFocusNavigationStartingPoint => "set_sequential_focus_navigation_starting_point",
}

/// The snake_case protocol name of an AccessKit action.
pub fn action_name(action: accesskit::Action) -> &'static str {
    ACTIONS
        .iter()
        .find(|(a, _)| *a == action)
        .map(|(_, n)| *n)
        .unwrap_or("unknown")
}

/// The AccessKit action with this protocol name.
pub fn parse_action(name: &str) -> Option<accesskit::Action> {
    ACTIONS.iter().find(|(_, n)| *n == name).map(|(a, _)| *a)
}

/// The names of every action `action` accepts.
pub fn action_names() -> impl Iterator<Item = &'static str> {
    ACTIONS.iter().map(|(_, n)| *n)
}

//! The one place where Bevy's AccessKit (0.24, `bevy::a11y::accesskit`) meets the service's
//! (0.25). The two versions' `Role` and `Action` enums have the same variants in the same order,
//! so each crosses by its number (`enumn` on both sides); the tests check every number. A node
//! keeps what the tree shows: role, label, value, numbers, toggled, disabled, actions.

use accesskit as to;
use accesskit_bevy as from;

/// Bevy's role in the service's AccessKit (`Unknown` should a later Bevy add one).
pub(crate) fn role(role: from::Role) -> to::Role {
    to::Role::n(role as u8).unwrap_or(to::Role::Unknown)
}

/// The service's action in Bevy's AccessKit, for an `ActionRequest` the app handles.
pub(crate) fn action(action: to::Action) -> Option<from::Action> {
    from::Action::n(action as u8)
}

fn toggled(toggled: from::Toggled) -> to::Toggled {
    match toggled {
        from::Toggled::True => to::Toggled::True,
        from::Toggled::False => to::Toggled::False,
        from::Toggled::Mixed => to::Toggled::Mixed,
    }
}

/// Bevy's node as a node of the service's tree, without children or bounds (the tree sets them).
pub(crate) fn node(node: &from::Node) -> to::Node {
    let mut out = to::Node::new(role(node.role()));
    if let Some(label) = node.label() {
        out.set_label(label);
    }
    if let Some(value) = node.value() {
        out.set_value(value);
    }
    if let Some(description) = node.description() {
        out.set_description(description);
    }
    if let Some(v) = node.numeric_value() {
        out.set_numeric_value(v);
    }
    if let Some(v) = node.min_numeric_value() {
        out.set_min_numeric_value(v);
    }
    if let Some(v) = node.max_numeric_value() {
        out.set_max_numeric_value(v);
    }
    if let Some(v) = node.numeric_value_step() {
        out.set_numeric_value_step(v);
    }
    if let Some(t) = node.toggled() {
        out.set_toggled(toggled(t));
    }
    if node.is_disabled() {
        out.set_disabled();
    }
    if node.is_hidden() {
        out.set_hidden();
    }
    for a in (0u8..).map_while(from::Action::n) {
        if node.supports_action(a)
            && let Some(a) = to::Action::n(a as u8)
        {
            out.add_action(a);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_role_and_action_number_names_the_same_variant_in_both_versions() {
        let mut roles = 0;
        for n in 0..=u8::MAX {
            let (a, b) = (from::Role::n(n), to::Role::n(n));
            assert_eq!(
                a.map(|r| format!("{r:?}")),
                b.map(|r| format!("{r:?}")),
                "role {n}"
            );
            if let Some(r) = a {
                assert_eq!(Some(role(r)), b);
                roles += 1;
            }
        }
        assert!(roles > 100, "only {roles} roles");
        let mut actions = 0;
        for n in 0..=u8::MAX {
            let (a, b) = (from::Action::n(n), to::Action::n(n));
            assert_eq!(
                a.map(|x| format!("{x:?}")),
                b.map(|x| format!("{x:?}")),
                "action {n}"
            );
            if let Some(b) = b {
                assert_eq!(action(b), a);
                actions += 1;
            }
        }
        assert!(actions > 10, "only {actions} actions");
    }

    #[test]
    fn a_slider_keeps_its_role_label_numbers_and_actions() {
        let mut slider = from::Node::new(from::Role::Slider);
        slider.set_label("Volume");
        slider.set_numeric_value(0.25);
        slider.set_min_numeric_value(0.0);
        slider.set_max_numeric_value(1.0);
        slider.set_numeric_value_step(0.05);
        slider.add_action(from::Action::SetValue);
        slider.add_action(from::Action::Focus);
        slider.set_disabled();
        let out = node(&slider);
        assert_eq!(out.role(), to::Role::Slider);
        assert_eq!(out.label(), Some("Volume"));
        assert_eq!(out.numeric_value(), Some(0.25));
        assert_eq!(out.min_numeric_value(), Some(0.0));
        assert_eq!(out.max_numeric_value(), Some(1.0));
        assert_eq!(out.numeric_value_step(), Some(0.05));
        assert!(out.supports_action(to::Action::SetValue));
        assert!(out.supports_action(to::Action::Focus));
        assert!(!out.supports_action(to::Action::Click));
        assert!(out.is_disabled());

        let mut check = from::Node::new(from::Role::CheckBox);
        check.set_toggled(from::Toggled::Mixed);
        check.set_value("x");
        let out = node(&check);
        assert_eq!(out.toggled(), Some(to::Toggled::Mixed));
        assert_eq!(out.value(), Some("x"));
        assert!(!out.is_disabled());
    }
}

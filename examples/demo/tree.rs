//! The demo's AccessKit tree: every widget of the UI as a node, with its role, name, value,
//! actions and bounds.

use accesskit::{Action, Node, Role, Toggled, TreeId};

use crate::gfx::Rect;
use crate::ui::{ITEMS, Ui, W};

impl Ui {
    /// The whole AccessKit tree; bounds in physical pixels, as AccessKit wants them.
    pub fn tree(&self, scale: f64) -> accesskit::TreeUpdate {
        let bounds = |rect: Rect| {
            let k = scale;
            accesskit::Rect::new(
                f64::from(rect.x) * k,
                f64::from(rect.y) * k,
                f64::from(rect.x + rect.w) * k,
                f64::from(rect.y + rect.h) * k,
            )
        };
        let node = |w: W, role: Role, label: &str| {
            let mut n = Node::new(role);
            if !label.is_empty() {
                n.set_label(label);
            }
            n.set_bounds(bounds(self.rect(w)));
            n
        };
        let clickable = |mut n: Node| {
            n.add_action(Action::Click);
            n.add_action(Action::Focus);
            n
        };
        let mut nodes = Vec::new();
        let mut root = node(W::Root, Role::Window, "winit-automation demo");
        let mut children = vec![
            W::Title.id(),
            W::Name.id(),
            W::Subscribe.id(),
            W::Volume.id(),
            W::Submit.id(),
            W::Open.id(),
            W::Status.id(),
            W::List.id(),
        ];
        if self.dialog {
            children.push(W::Dialog.id());
        }
        root.set_children(children);
        nodes.push((W::Root.id(), root));

        let mut title = node(W::Title, Role::Label, "");
        title.set_value("Sign up");
        nodes.push((W::Title.id(), title));

        let mut name = node(W::Name, Role::TextInput, "Name");
        name.set_value(self.name.clone());
        name.add_action(Action::Focus);
        name.add_action(Action::SetValue);
        name.add_action(Action::ReplaceSelectedText);
        nodes.push((W::Name.id(), name));

        let mut subscribe = clickable(node(W::Subscribe, Role::CheckBox, "Subscribe"));
        subscribe.set_toggled(if self.subscribe { Toggled::True } else { Toggled::False });
        nodes.push((W::Subscribe.id(), subscribe));

        let mut volume = node(W::Volume, Role::Slider, "Volume");
        volume.set_numeric_value(self.volume);
        volume.set_min_numeric_value(0.0);
        volume.set_max_numeric_value(100.0);
        volume.set_numeric_value_step(5.0);
        for a in [Action::Focus, Action::SetValue, Action::Increment, Action::Decrement] {
            volume.add_action(a);
        }
        nodes.push((W::Volume.id(), volume));

        nodes.push((W::Submit.id(), clickable(node(W::Submit, Role::Button, &self.submit_label))));
        nodes.push((W::Open.id(), clickable(node(W::Open, Role::Button, "Open dialog"))));

        let mut status = node(W::Status, Role::Label, "Status");
        status.set_value(self.status.clone());
        nodes.push((W::Status.id(), status));

        let mut list = node(W::List, Role::List, "Items");
        list.set_clips_children();
        list.set_scroll_y(f64::from(self.scroll) * scale);
        list.set_scroll_y_min(0.0);
        list.set_scroll_y_max(f64::from(self.max_scroll()) * scale);
        for a in [Action::ScrollDown, Action::ScrollUp, Action::SetScrollOffset] {
            list.add_action(a);
        }
        list.set_children((0..ITEMS).map(|i| W::Item(i).id()).collect::<Vec<_>>());
        nodes.push((W::List.id(), list));
        for i in 0..ITEMS {
            let mut item =
                clickable(node(W::Item(i), Role::ListItem, &format!("Item {:02}", i + 1)));
            item.add_action(Action::ScrollIntoView);
            item.set_selected(self.selected == Some(i));
            nodes.push((W::Item(i).id(), item));
        }

        if self.dialog {
            let mut dialog = node(W::Dialog, Role::Dialog, "Confirm");
            dialog.set_modal();
            dialog.set_children(vec![W::DialogText.id(), W::Ok.id(), W::Cancel.id()]);
            nodes.push((W::Dialog.id(), dialog));
            let mut text = node(W::DialogText, Role::Label, "");
            text.set_value("Send the form?");
            nodes.push((W::DialogText.id(), text));
            nodes.push((W::Ok.id(), clickable(node(W::Ok, Role::Button, "OK"))));
            nodes.push((W::Cancel.id(), clickable(node(W::Cancel, Role::Button, "Cancel"))));
        }
        accesskit::TreeUpdate {
            nodes,
            tree: Some(accesskit::TreeInfo::new(W::Root.id())),
            tree_id: TreeId::ROOT,
            focus: self.focus.map_or(W::Root.id(), W::id),
        }
    }
}

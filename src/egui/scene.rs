//! What egui knows and its AccessKit tree does not say: the paint order of its layers (windows,
//! popups, menus, tooltips), the modal layer, where each layer is clipped, and which widget took
//! a press. [`EguiScene`] reads them from egui's own state after each frame and hands them to the
//! plugin ([`crate::Automation::layers`], [`crate::Automation::pointer_hit`]).

use std::collections::HashSet;

use accesskit::{NodeId, Rect};
use egui::{AreaState, Context, FullOutput, Id, LayerId};

use crate::Layers;

/// Reads an egui frame's layers and pointer hit; keep one per window, across frames (it reuses
/// its buffers, so a frame whose layers did not change allocates nothing).
///
/// ```ignore
/// let output = ctx.run_ui(raw, |ui| app.ui(ui));
/// scene.report(&ctx, &output, &automation, window.id()); // layers, pointer hit, animating
/// ```
#[derive(Debug, Default)]
pub struct EguiScene {
    layers: Layers,
    hit: Option<Option<NodeId>>,
    /// egui's layers, bottom to top.
    ids: Vec<LayerId>,
    /// The node ids of the frame's tree update (egui sends its whole tree every frame).
    nodes: HashSet<NodeId>,
}

impl EguiScene {
    /// A scene that says nothing yet.
    pub fn new() -> EguiScene {
        EguiScene::default()
    }

    /// Reads the frame `ctx` just ran (`Context::run_ui`), whose output is `output`. Needs egui's
    /// AccessKit output (`Context::enable_accesskit`): without a tree update it says nothing.
    pub fn read(&mut self, ctx: &Context, output: &FullOutput) {
        self.nodes.clear();
        if let Some(update) = &output.platform_output.accesskit_update {
            self.nodes.extend(update.nodes.iter().map(|(id, _)| *id));
        }
        let ppp = f64::from(output.pixels_per_point);
        let layers = &mut self.layers;
        layers.order.clear();
        layers.clips.clear();
        let nodes = &self.nodes;
        self.ids.clear();
        ctx.memory(|m| self.ids.extend(m.layer_ids()));
        for &layer in &self.ids {
            let Some(root) = layer_root(nodes, layer) else {
                continue;
            };
            layers.order.push(root);
            // Nothing of an area is drawn outside it (a window clips its contents).
            if let Some(state) = AreaState::load(ctx, layer.id) {
                let r = state.rect();
                if r.is_positive() && r.is_finite() {
                    let px = |v: f32| f64::from(v) * ppp;
                    let rect = Rect::new(px(r.min.x), px(r.min.y), px(r.max.x), px(r.max.y));
                    layers.clips.push((root, Some(rect)));
                }
            }
        }
        layers.modal = ctx
            .memory(|m| m.top_modal_layer())
            .and_then(|layer| layer_root(nodes, layer));
        self.hit = if ctx.input(|i| i.pointer.any_pressed()) {
            self.pressed(ctx)
        } else {
            None
        };
    }

    /// The layers read last: paint order, the modal layer and clips, as node ids of the tree.
    pub fn layers(&self) -> &Layers {
        &self.layers
    }

    /// Which node took the press of the frame read last: `Some(Some(node))` a widget egui
    /// clicked or started dragging; `Some(None)` nothing (no widget under the pointer at all);
    /// `None` when the frame had no press or egui does not say (a press held over a widget that
    /// senses clicks and drags, or one on a widget with no node in the tree).
    pub fn pointer_hit(&self) -> Option<Option<NodeId>> {
        self.hit
    }

    /// Reads the frame and tells `automation` about `window`: its layers
    /// ([`crate::Automation::layers`]), the node that took a press
    /// ([`crate::Automation::pointer_hit`], only when egui says), and whether egui animates
    /// ([`crate::Automation::animating`], from [`super::is_animating`]). Call it once per frame,
    /// after `Context::run_ui`, with the frame's output.
    pub fn report(
        &mut self,
        ctx: &Context,
        output: &FullOutput,
        automation: &crate::Automation,
        window: winit::window::WindowId,
    ) {
        self.read(ctx, output);
        automation.animating(window, super::is_animating(output));
        automation.layers(window, &self.layers);
        if let Some(hit) = self.hit {
            automation.pointer_hit(window, hit);
        }
    }

    fn pressed(&self, ctx: &Context) -> Option<Option<NodeId>> {
        let (clicked, dragged, anywhere) = ctx.interaction_snapshot(|s| {
            (
                s.clicked,
                s.drag_started.or(s.dragged),
                !s.contains_pointer.is_empty(),
            )
        });
        match clicked.or(dragged) {
            Some(id) => self
                .nodes
                .contains(&id.accesskit_id())
                .then_some(Some(id.accesskit_id())),
            None if !anywhere => Some(None),
            None => None,
        }
    }
}

/// The node egui emits at the top of a layer: an area's widget (`id.with("move")`, which takes
/// the presses that raise or move it and holds the area's contents), else the layer's own `Ui`.
fn layer_root(nodes: &HashSet<NodeId>, layer: LayerId) -> Option<NodeId> {
    let area: Id = layer.id.with("move");
    [area, layer.id]
        .into_iter()
        .map(|id| id.accesskit_id())
        .find(|id| nodes.contains(id))
}

#[cfg(test)]
mod tests {
    use super::*;
    use accesskit::Role;
    use egui::{Event, PointerButton, Pos2, RawInput, Window};

    /// Runs one frame of two windows ("A" with a button, then "B") and, with `modal`, a modal.
    fn frame(ctx: &Context, events: Vec<Event>, modal: bool) -> FullOutput {
        let raw = RawInput {
            screen_rect: Some(egui::Rect::from_min_size(
                Pos2::ZERO,
                egui::vec2(800.0, 600.0),
            )),
            events,
            ..Default::default()
        };
        let mut output = ctx.run_ui(raw, |ui| {
            let ctx = ui.ctx().clone();
            Window::new("A")
                .default_pos([10.0, 10.0])
                .show(&ctx, |ui| ui.button("Press"));
            Window::new("B")
                .default_pos([300.0, 10.0])
                .show(&ctx, |ui| ui.label("b"));
            if modal {
                egui::Modal::new(Id::unique("modal")).show(&ctx, |ui| ui.label("modal"));
            }
        });
        // Nothing draws here; egui checks that no texture change is dropped unapplied.
        output.textures_delta.clear();
        output
    }

    fn node(output: &FullOutput, id: NodeId) -> &accesskit::Node {
        let update = output.platform_output.accesskit_update.as_ref().unwrap();
        &update.nodes.iter().find(|(n, _)| *n == id).unwrap().1
    }

    fn find(output: &FullOutput, role: Role, label: &str) -> NodeId {
        let update = output.platform_output.accesskit_update.as_ref().unwrap();
        update
            .nodes
            .iter()
            .find(|(_, n)| n.role() == role && n.label() == Some(label))
            .unwrap_or_else(|| panic!("no {role:?} {label:?}"))
            .0
    }

    #[test]
    fn windows_are_layers_in_egui_s_order_and_a_modal_is_the_modal_layer() {
        let ctx = Context::default();
        ctx.enable_accesskit();
        let mut scene = EguiScene::new();
        for _ in 0..3 {
            let output = frame(&ctx, vec![], false);
            scene.read(&ctx, &output);
        }
        let output = frame(&ctx, vec![], false);
        scene.read(&ctx, &output);
        let (a, b) = (
            find(&output, Role::Window, "A"),
            find(&output, Role::Window, "B"),
        );
        let order = &scene.layers().order;
        let at = |id| order.iter().position(|n| *n == id);
        assert!(
            at(a).unwrap() < at(b).unwrap(),
            "B was shown last: {order:?}"
        );
        assert_eq!(scene.layers().modal, None);
        // Every window root is clipped to its area.
        for root in [a, b] {
            let clip = scene.layers().clips.iter().find(|(n, _)| *n == root);
            let bounds = node(&output, root).bounds().unwrap();
            assert_eq!(clip.and_then(|c| c.1), Some(bounds), "{root:?}");
        }

        for _ in 0..3 {
            let output = frame(&ctx, vec![], true);
            scene.read(&ctx, &output);
        }
        let modal = scene.layers().modal.expect("the modal layer");
        assert_eq!(
            scene.layers().order.last(),
            Some(&modal),
            "the modal is on top"
        );
    }

    #[test]
    fn a_click_names_the_button_that_took_it_and_a_press_on_nothing_names_none() {
        let ctx = Context::default();
        ctx.enable_accesskit();
        let mut scene = EguiScene::new();
        let mut output = frame(&ctx, vec![], false);
        for _ in 0..3 {
            output = frame(&ctx, vec![], false);
        }
        let button = find(&output, Role::Button, "Press");
        let r = node(&output, button).bounds().unwrap();
        let pos = Pos2::new(((r.x0 + r.x1) / 2.0) as f32, ((r.y0 + r.y1) / 2.0) as f32);
        let press = |pos, pressed| Event::PointerButton {
            pos,
            button: PointerButton::Primary,
            pressed,
            modifiers: Default::default(),
        };
        let click = |pos| {
            vec![
                Event::PointerMoved(pos),
                press(pos, true),
                press(pos, false),
            ]
        };
        let output = frame(&ctx, click(pos), false);
        scene.read(&ctx, &output);
        assert_eq!(scene.pointer_hit(), Some(Some(button)));
        // No press, nothing to say.
        let output = frame(&ctx, vec![], false);
        scene.read(&ctx, &output);
        assert_eq!(scene.pointer_hit(), None);
        // A press on the background: the root Ui contains the pointer, so egui does not say.
        let output = frame(&ctx, click(Pos2::new(700.0, 500.0)), false);
        scene.read(&ctx, &output);
        assert_ne!(scene.pointer_hit(), Some(Some(button)));
    }
}

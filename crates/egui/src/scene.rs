//! What egui knows and its AccessKit tree does not say: the paint order of its layers (windows,
//! popups, menus, tooltips), the modal layer, where each layer is clipped, and which widget took
//! a press. [`EguiScene`] reads them from egui's own state after each frame and hands them to the
//! plugin ([`winit_automation::Frame::layers`], [`winit_automation::Frame::pointer_hit`]).
//!
//! Clipping inside a layer (a scroll area's rows scrolled past its edge) is not in the tree, but
//! each `Ui` is a widget of egui's pass whose interaction rectangle is its area cut to its clip
//! rectangle: a container whose interaction rectangle is less than its area is a clip. Everything
//! is read from the pass just ended (egui's `prev_pass` of the scene's viewport).

use std::collections::{HashMap, HashSet};

use accesskit::{NodeId, Rect, Role};
use egui::{AreaState, Context, FullOutput, Id, LayerId, ViewportId};

use winit_automation::Layers;

/// Reads an egui frame's layers and pointer hit; keep one per window, across frames (it reuses
/// its buffers, so a frame whose layers did not change allocates nothing).
///
/// ```ignore
/// let output = ctx.run_ui(raw, |ui| app.ui(ui));
/// scene.report(&ctx, &output, &mut frame, window.id()); // layers, pointer hit, animating
/// ```
#[derive(Debug)]
pub struct EguiScene {
    layers: Layers,
    hit: Option<Option<NodeId>>,
    /// egui's layers, bottom to top, each with its area's rectangle when it has one.
    areas: Vec<(LayerId, Option<egui::Rect>)>,
    /// egui's modal layer.
    modal: Option<LayerId>,
    /// Whether [`EguiScene::read_memory`] ran for the pass [`EguiScene::read`] reads.
    memory_read: bool,
    /// The node ids of the frame's tree update (egui sends its whole tree every frame).
    nodes: HashSet<NodeId>,
    /// The node ids of the frame before: a widget pressed in this frame may have left this one's
    /// tree (egui's drag source paints what it drags elsewhere once the press starts a drag).
    before: HashSet<NodeId>,
    /// The viewport it reads (egui keeps a state per viewport).
    viewport: ViewportId,
    /// Buffers kept across frames, so that reading a frame allocates nothing once they have
    /// grown: the update's containers, the clipped ones, egui's layer ids, and the update's
    /// node indices (`annotate`).
    containers: HashSet<NodeId>,
    clipped: Vec<(NodeId, egui::Rect)>,
    layer_ids: Vec<LayerId>,
    index: HashMap<NodeId, usize>,
}

impl Default for EguiScene {
    fn default() -> EguiScene {
        EguiScene::new()
    }
}

impl EguiScene {
    /// A scene of the root viewport that says nothing yet.
    pub fn new() -> EguiScene {
        EguiScene::for_viewport(ViewportId::ROOT)
    }

    /// A scene of `viewport` (each viewport is a window of its own) that says nothing yet.
    pub fn for_viewport(viewport: ViewportId) -> EguiScene {
        EguiScene {
            layers: Layers::default(),
            hit: None,
            areas: Vec::new(),
            modal: None,
            memory_read: false,
            nodes: HashSet::new(),
            before: HashSet::new(),
            viewport,
            containers: HashSet::new(),
            clipped: Vec::new(),
            layer_ids: Vec::new(),
            index: HashMap::new(),
        }
    }

    /// Reads the frame `ctx` just ran (`Context::run_ui`), whose output is `output`. Needs egui's
    /// AccessKit output (`Context::enable_accesskit`): without a tree update it says nothing.
    pub fn read(&mut self, ctx: &Context, output: &FullOutput) {
        if !self.memory_read {
            self.read_memory(ctx);
        }
        self.memory_read = false;
        std::mem::swap(&mut self.nodes, &mut self.before);
        self.nodes.clear();
        if let Some(update) = &output.platform_output.accesskit_update {
            self.nodes.extend(update.nodes.iter().map(|(id, _)| *id));
        }
        let ppp = f64::from(output.pixels_per_point);
        let px = |r: egui::Rect| {
            let p = |v: f32| f64::from(v) * ppp;
            Rect::new(p(r.min.x), p(r.min.y), p(r.max.x), p(r.max.y))
        };
        let layers = &mut self.layers;
        layers.order.clear();
        layers.clips.clear();
        let nodes = &self.nodes;
        for &(layer, area) in &self.areas {
            let Some(root) = layer_root(nodes, layer) else {
                continue;
            };
            layers.order.push(root);
            // Nothing of an area is drawn outside it (a window clips its contents).
            if let Some(r) = area {
                layers.clips.push((root, Some(px(r))));
            }
        }
        layers.modal = self.modal.and_then(|layer| layer_root(nodes, layer));
        self.clips(ctx, output, px);
        self.hit = if ctx.input_for(self.viewport, |i| i.pointer.any_pressed()) {
            self.pressed(ctx, output)
        } else {
            None
        };
    }

    /// Reads what egui keeps in its memory of the viewport whose pass is running: its layers,
    /// bottom to top, each area's rectangle, and the modal layer. The plugin calls it at the end
    /// of each pass (`Plugin::on_end_pass`), where egui's memory is still that viewport's (once an
    /// immediate viewport's pass is over, it is its parent's again); [`EguiScene::read`] calls it
    /// itself when nobody did.
    pub fn read_memory(&mut self, ctx: &Context) {
        self.areas.clear();
        let mut layers = std::mem::take(&mut self.layer_ids);
        layers.clear();
        ctx.memory(|m| layers.extend(m.layer_ids()));
        for &layer in &layers {
            let area = AreaState::load(ctx, layer.id)
                .map(|state| state.rect())
                .filter(|r| r.is_positive() && r.is_finite());
            self.areas.push((layer, area));
        }
        self.layer_ids = layers;
        self.modal = ctx.memory(|m| m.top_modal_layer());
        self.memory_read = true;
    }
    /// The clips of the frame's containers (see the module's docs).
    fn clips(&mut self, ctx: &Context, output: &FullOutput, px: impl Fn(egui::Rect) -> Rect) {
        let Some(update) = &output.platform_output.accesskit_update else {
            return;
        };
        let containers = &mut self.containers;
        containers.clear();
        containers.extend(
            update
                .nodes
                .iter()
                .filter(|(_, n)| n.role() == Role::GenericContainer && !n.children().is_empty())
                .map(|(id, _)| *id),
        );
        let clipped = &mut self.clipped;
        clipped.clear();
        ctx.viewport_for(self.viewport, |v| {
            clipped.extend(
                v.prev_pass
                    .widgets
                    .layers()
                    .flat_map(|(_, widgets)| widgets.iter())
                    .filter_map(|w| {
                        let (id, rect, reach) = (w.id.accesskit_id(), w.rect, w.interact_rect);
                        let whole = rect.is_positive() && rect.is_finite() && !reach.any_nan();
                        (whole && reach != rect && containers.contains(&id)).then_some((id, reach))
                    }),
            );
        });
        // egui keeps its layers in a hash map: in node order, the same clips are the same value
        // next frame (a reordered list would be sent again, and count as a change for settle).
        clipped.sort_unstable_by_key(|(id, _)| *id);
        self.layers
            .clips
            .extend(clipped.iter().map(|&(id, r)| (id, Some(px(r)))));
    }

    /// Names what egui leaves unnamed in a copy of the frame's tree (the plugin's, never the
    /// app's own output): each window's title bar, an `unknown` node egui emits for the strip that
    /// takes the title's clicks and drags, becomes a `titlebar` named after its window, so
    /// `drag role=titlebar name="Settings" to ...` moves a window. Call it after
    /// [`EguiScene::read`] of the same frame.
    pub fn annotate(&mut self, update: &mut accesskit::TreeUpdate) {
        let at = &mut self.index;
        at.clear();
        at.extend(update.nodes.iter().enumerate().map(|(i, (id, _))| (*id, i)));
        for (layer, _) in &self.areas {
            let window = at.get(&layer.id.with("move").accesskit_id());
            let bar = at.get(&layer.id.with("__title_click").accesskit_id());
            let (Some(&window), Some(&bar)) = (window, bar) else {
                continue;
            };
            let window = &update.nodes[window].1;
            let Some(title) = window
                .label()
                .filter(|_| window.role() == Role::Window)
                .map(str::to_owned)
            else {
                continue;
            };
            let node = &mut update.nodes[bar].1;
            if matches!(node.role(), Role::Unknown | Role::GenericContainer) {
                node.set_role(Role::TitleBar);
                node.set_label(title);
            }
        }
    }

    /// The layers read last: paint order, the modal layer and clips, as node ids of the tree.
    pub fn layers(&self) -> &Layers {
        &self.layers
    }

    /// Which node took the press of the frame read last: `Some(Some(node))` a widget egui
    /// clicked, else the one its hit test gives the press to, else the one it started dragging,
    /// else the innermost node egui hovers (the interactive widget under the pointer and those
    /// drawn over it); `Some(None)` nothing (no widget under the pointer at all); `None` when the
    /// frame had no press or egui does not say (a widget with no node in this frame's tree nor
    /// the one before, or no node of the tree hovered).
    pub fn pointer_hit(&self) -> Option<Option<NodeId>> {
        self.hit
    }

    /// Reads the frame and tells `frame` about `window`: that its pass ran
    /// ([`winit_automation::Frame::window_pass`]), its layers ([`winit_automation::Frame::layers`]), the node that
    /// took a press
    /// ([`winit_automation::Frame::pointer_hit`], only when egui says), and whether egui animates
    /// ([`winit_automation::Frame::animating`], from [`super::is_animating`]). Call it once per frame,
    /// after `Context::run_ui`, with the frame's output.
    pub fn report(
        &mut self,
        ctx: &Context,
        output: &FullOutput,
        frame: &mut winit_automation::Frame,
        window: winit::window::WindowId,
    ) {
        self.read(ctx, output);
        // The viewport's pass ran: its press report, if any, is the one below.
        frame.window_pass(window);
        frame.animating(
            window,
            super::animating::is_animating_viewport(output, self.viewport),
        );
        frame.layers(window, &self.layers);
        if let Some(hit) = self.hit {
            frame.pointer_hit(window, hit);
        }
    }

    fn pressed(&self, ctx: &Context, output: &FullOutput) -> Option<Option<NodeId>> {
        // A node of this frame's tree, or of the frame before's: the widget egui gave the press
        // to may be drawn elsewhere now (a drag source being dragged).
        let known = |id: Id| {
            Some(id.accesskit_id()).filter(|n| self.nodes.contains(n) || self.before.contains(n))
        };
        let (clicked, hit, dragged, anywhere, hovered) = ctx.viewport_for(self.viewport, |v| {
            let s = &v.interact_widgets;
            let mut hovered: Vec<NodeId> = s.hovered.iter().filter_map(|&id| known(id)).collect();
            // egui keeps them in a hash set: sorted, the answer does not depend on its order.
            hovered.sort_unstable();
            (
                s.clicked,
                // The widget egui's hit test gives the press to: the one that senses clicks,
                // else the one that senses drags.
                v.hits.click.or(v.hits.drag).map(|w| w.id),
                s.drag_started.or(s.dragged),
                !s.contains_pointer.is_empty(),
                hovered,
            )
        });
        // A click names its widget. A press not released yet (a long press, the start of a
        // drag) goes where egui's hit test gives it: egui may already call the window under a
        // held button dragged (its move area senses drags), though the button took the press.
        // A widget with no node in the tree: egui does not say.
        match clicked.or(hit).or(dragged) {
            Some(id) => known(id).map(Some),
            None if !anywhere => Some(None),
            // No widget took it as a click or a drag (yet): the innermost of those egui hovers
            // (what is drawn over the pointer).
            None => innermost(&hovered, output).map(Some),
        }
    }
}

/// Of `candidates`, one that holds none of the others in the frame's tree; `None` for none.
fn innermost(candidates: &[NodeId], output: &FullOutput) -> Option<NodeId> {
    let first = *candidates.first()?;
    if candidates.len() == 1 {
        return Some(first);
    }
    let update = output.platform_output.accesskit_update.as_ref()?;
    let parents: std::collections::HashMap<NodeId, NodeId> = update
        .nodes
        .iter()
        .flat_map(|(id, node)| node.children().iter().map(move |c| (*c, *id)))
        .collect();
    let holds_another = |id: NodeId| {
        candidates.iter().any(|&c| {
            let mut at = parents.get(&c);
            while let Some(&p) = at {
                if p == id {
                    return true;
                }
                at = parents.get(&p);
            }
            false
        })
    };
    candidates.iter().copied().find(|&c| !holds_another(c))
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
mod tests;

//! From an action command to the input that carries it out: targets are resolved against the
//! mirror, checked (visible, not zero-size, not disabled, not covered) and turned into steps that
//! name no window system. The render side turns each step into a winit event, a key event of the
//! crate's own type, text or an AccessKit `ActionRequest`.
//!
//! Runs on the service thread, when every earlier action has been carried out, so a target is
//! resolved against the tree those actions left.

use std::fmt::Write;

use accesskit::{Action, ActionData, NodeId, Point as AkPoint, Rect, Role, TreeId};
use accesskit_consumer::NodeRef as Node;

use super::format::{self, clip_at, clips, intersect, num};
use super::mirror::WindowMirror;
use super::refs::{self, Found};
use super::{Trees, roles::role_name};
use crate::protocol::{
    Button, Command, ErrorCode, Failure, KeyChord, Point, Target, action_name, quote,
};

/// One input step, in logical pixels where it has a position.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Step {
    /// The pointer moves to this point of the window.
    Move { x: f64, y: f64 },
    /// A button goes down or up where the pointer is.
    Button { button: Button, pressed: bool },
    /// A wheel turn where the pointer is; positive `dy` shows what is below.
    Wheel { dx: f64, dy: f64 },
    /// Text committed at the focus.
    Text(String),
    /// A key chord goes down or up.
    Key { chord: KeyChord, pressed: bool },
    /// An AccessKit action for the app's action handler.
    Action {
        node: NodeId,
        tree: TreeId,
        action: Action,
        data: Option<ActionData>,
        widget: Option<String>,
    },
    /// The window's content should take this logical size.
    Resize { width: u32, height: u32 },
    /// The app should exit.
    Quit,
    /// The frame's pixels go to `file` (a `screenshot-<label>.png` name), cropped to `crop` (x, y,
    /// width, height in logical pixels) when given. Answered when the image is written, not when
    /// the step is delivered.
    Capture {
        file: String,
        crop: Option<[f64; 4]>,
    },
}

/// What the render side does for one command: stages of steps, one stage per frame.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Plan {
    /// The window the steps are for (0 when the command names none and no window is known).
    pub window: u64,
    /// The stages, delivered one per frame in order. Empty for a command the app answers itself.
    pub stages: Vec<Vec<Step>>,
    /// The body of the answer once the last stage is delivered (`path ...` and what was aimed at).
    pub summary: String,
}

/// How many unchanged frames make a tree settled when `--frames` is not given.
pub(crate) const DEFAULT_SETTLE_FRAMES: u32 = 3;

/// What a pointer aims at.
struct Aim {
    window: u64,
    x: f64,
    y: f64,
    /// The target's line, or `None` for a point target.
    line: Option<String>,
}

/// Whether a node lying on top of a target counts as covering it: something that takes the pointer
/// (an interactive node) or a surface drawn over others (dialogs, windows, menus, tooltips). Layout
/// containers, panes, regions and plain text do not: toolkits give them bounds that overlap their
/// neighbours without drawing over them.
fn can_cover(node: &Node) -> bool {
    format::is_interactive(node)
        || matches!(
            node.role(),
            Role::Dialog
                | Role::AlertDialog
                | Role::Window
                | Role::Menu
                | Role::MenuBar
                | Role::MenuListPopup
                | Role::Tooltip
        )
}

fn is_empty(r: Rect) -> bool {
    r.x1 <= r.x0 || r.y1 <= r.y0
}

fn contains(r: Rect, p: AkPoint) -> bool {
    p.x >= r.x0 && p.x < r.x1 && p.y >= r.y0 && p.y < r.y1
}

fn is_within(node: &Node, ancestor: accesskit_consumer::FullNodeId) -> bool {
    let mut current = Some(*node);
    while let Some(n) = current {
        if n.id() == ancestor {
            return true;
        }
        current = n.parent();
    }
    false
}

/// The topmost node at `p` (tree units) that can cover others, honouring hidden subtrees and
/// every clip; and the last modal dialog shown, if any. Paint order is tree order: a later node
/// lies on top of an earlier one, a child on top of its parent.
fn hit<'a>(
    w: &'a WindowMirror,
    root: Node<'a>,
    p: AkPoint,
) -> (Option<Node<'a>>, Option<Node<'a>>) {
    let mut top = None;
    let mut modal = None;
    let mut stack = vec![(root, w.viewport())];
    while let Some((node, clip)) = stack.pop() {
        if node.is_hidden() {
            continue;
        }
        if node.is_dialog() && node.is_modal() {
            modal = Some(node);
        }
        let bounds = node.bounding_box();
        let visible = match (bounds, clip) {
            (Some(b), Some(c)) => Some(intersect(b, c)),
            (b, None) => b,
            (None, Some(_)) => None,
        };
        if let Some(v) = visible
            && can_cover(&node)
            && contains(v, p)
        {
            top = Some(node);
        }
        let child_clip = match (clips(&node), bounds) {
            (true, Some(b)) => Some(clip.map_or(b, |c| intersect(c, b))),
            _ => clip,
        };
        let children: Vec<_> = node.children().collect();
        stack.extend(children.into_iter().rev().map(|c| (c, child_clip)));
    }
    (top, modal)
}

fn failure(code: ErrorCode, message: String, hint: &str) -> Failure {
    Failure::new(code, message, hint)
}

/// The node a resolved target names, still in its window's tree.
fn live_node<'a>(w: &'a WindowMirror, found: Found, line: &str) -> Result<Node<'a>, Failure> {
    w.tree
        .as_ref()
        .and_then(|t| t.state().node_by_id(found.node))
        .ok_or_else(|| {
            failure(
                ErrorCode::NotFound,
                format!("{line} is gone"),
                "take a fresh snapshot",
            )
        })
}

/// The window a command without a target goes to: the focused one, else the first known.
fn default_window(trees: &Trees) -> Result<u64, Failure> {
    let windows = &trees.mirror.windows;
    windows
        .iter()
        .find(|(_, w)| w.state.as_ref().is_some_and(|s| s.focused))
        .or_else(|| windows.iter().next())
        .map(|(&id, _)| id)
        .ok_or_else(|| {
            Failure::new(
                ErrorCode::NotFound,
                "the app has not told the plugin about any window",
                "the app must call Automation::track_window or window_state for each window",
            )
        })
}

impl Trees {
    fn node_line(&mut self, f: Found) -> String {
        format::found_line(&self.mirror, &mut self.refs, f)
    }

    /// Resolves a target to a node and checks that the pointer can reach its visible centre.
    /// `check_cover` is off for where a drag ends.
    fn aim(&mut self, target: &Target, check_cover: bool) -> Result<Aim, Failure> {
        if let Target::Point(p) = target {
            let window = default_window(self)?;
            return self.aim_point(window, *p);
        }
        let found = self.resolve(target)?;
        let line = self.node_line(found);
        let w = &self.mirror.windows[&found.window];
        let Some(tree) = &w.tree else {
            return Err(failure(
                ErrorCode::NotFound,
                format!("window {} has no tree", found.window),
                "wait for the app to publish its tree",
            ));
        };
        let state = tree.state();
        let Some(node) = state.node_by_id(found.node) else {
            return Err(failure(
                ErrorCode::NotFound,
                format!("{line} is gone"),
                "take a fresh snapshot",
            ));
        };
        let mut hidden = Some(node);
        while let Some(n) = hidden {
            if n.is_hidden() {
                return Err(failure(
                    ErrorCode::Offscreen,
                    format!("{line} is hidden"),
                    "it is not shown now; make it visible first",
                ));
            }
            hidden = n.parent();
        }
        if node.is_disabled() {
            return Err(failure(
                ErrorCode::Disabled,
                format!("{line} is disabled"),
                "wait for it to be enabled (wait, or snapshot again) before acting on it",
            ));
        }
        let Some(bounds) = node.bounding_box().filter(|b| !is_empty(*b)) else {
            return Err(failure(
                ErrorCode::ZeroSize,
                format!("{line} has no area to aim at"),
                "act on it with `action TARGET NAME` instead, or aim at its parent",
            ));
        };
        let visible = clip_at(w, &node).map_or(bounds, |c| intersect(bounds, c));
        if is_empty(visible) {
            return Err(failure(
                ErrorCode::Offscreen,
                format!("{line} is outside the visible area"),
                "scroll it into view first: `action TARGET scroll_into_view`, or `scroll` its list",
            ));
        }
        let centre = AkPoint::new(
            (visible.x0 + visible.x1) / 2.0,
            (visible.y0 + visible.y1) / 2.0,
        );
        if check_cover {
            let (top, modal) = hit(w, state.root(), centre);
            if let Some(d) = modal
                && !is_within(&node, d.id())
            {
                let by = refs::name_of(&d);
                return Err(failure(
                    ErrorCode::Covered,
                    format!(
                        "{line} is behind the modal {} {}",
                        role_name(d.role()),
                        quote(&by)
                    ),
                    "close the dialog first",
                ));
            }
            if let Some(t) = top
                && !is_within(&t, node.id())
                && !is_within(&node, t.id())
            {
                let cover = Found {
                    window: found.window,
                    node: t.id(),
                };
                let by = format::found_line(&self.mirror, &mut self.refs, cover);
                let k = self.mirror.windows[&found.window].units_per_logical();
                return Err(failure(
                    ErrorCode::Covered,
                    format!(
                        "{line} is covered at {},{} by {by}",
                        num(centre.x / k),
                        num(centre.y / k)
                    ),
                    "close or move what lies on top, or act on the target with `action`",
                ));
            }
        }
        let k = self.mirror.windows[&found.window].units_per_logical();
        Ok(Aim {
            window: found.window,
            x: centre.x / k,
            y: centre.y / k,
            line: Some(line),
        })
    }

    /// The visible part of a target's bounds (x, y, width, height, logical pixels), for a cropped
    /// screenshot.
    fn visible_rect(&mut self, target: &Target) -> Result<(u64, [f64; 4]), Failure> {
        let found = self.resolve(target)?;
        let line = self.node_line(found);
        let w = &self.mirror.windows[&found.window];
        let node = live_node(w, found, &line)?;
        let Some(bounds) = node.bounding_box().filter(|b| !is_empty(*b)) else {
            return Err(failure(
                ErrorCode::ZeroSize,
                format!("{line} has no area to crop to"),
                "crop to a node with bounds, or take the whole window",
            ));
        };
        let visible = clip_at(w, &node).map_or(bounds, |c| intersect(bounds, c));
        if is_empty(visible) {
            return Err(failure(
                ErrorCode::Offscreen,
                format!("{line} is outside the visible area"),
                "scroll it into view first, or take the whole window",
            ));
        }
        let k = w.units_per_logical();
        Ok((
            found.window,
            [
                visible.x0 / k,
                visible.y0 / k,
                (visible.x1 - visible.x0) / k,
                (visible.y1 - visible.y0) / k,
            ],
        ))
    }

    fn aim_point(&mut self, window: u64, p: Point) -> Result<Aim, Failure> {
        if let Some(s) = &self.mirror.windows[&window].state
            && !(p.x >= 0.0 && p.y >= 0.0 && p.x < s.width && p.y < s.height)
        {
            return Err(failure(
                ErrorCode::Offscreen,
                format!(
                    "{p} is outside the window, which is {}x{}",
                    num(s.width),
                    num(s.height)
                ),
                "points are logical pixels from the window's top left",
            ));
        }
        Ok(Aim {
            window,
            x: p.x,
            y: p.y,
            line: None,
        })
    }

    /// A node for a non-pointer action: resolved, shown and enabled.
    fn node_for(&mut self, target: &Target, action: Action) -> Result<(Found, String), Failure> {
        let found = self.resolve(target)?;
        let line = self.node_line(found);
        let w = &self.mirror.windows[&found.window];
        let node = live_node(w, found, &line)?;
        let always = matches!(
            action,
            Action::ScrollIntoView | Action::ShowTooltip | Action::HideTooltip | Action::Blur
        );
        if !always && node.is_disabled() {
            return Err(failure(
                ErrorCode::Disabled,
                format!("{line} is disabled"),
                "wait for it to be enabled before acting on it",
            ));
        }
        if !node.supports_action(action, &|_: &Node| {
            accesskit_consumer::FilterResult::Include
        }) {
            let listed: Vec<&str> = crate::protocol::action_names()
                .filter(|n| {
                    crate::protocol::parse_action(n).is_some_and(|a| node.data().supports_action(a))
                })
                .collect();
            return Err(failure(
                ErrorCode::ActionNotSupported,
                format!(
                    "{line} does not support {}; it supports: {}",
                    action_name(action),
                    if listed.is_empty() {
                        "no actions".to_owned()
                    } else {
                        listed.join(" ")
                    }
                ),
                match action {
                    Action::Focus => "click it instead, if clicking is what you mean",
                    _ => "pick an action the node lists, or use click/type/key",
                },
            ));
        }
        Ok((found, line))
    }

    fn action_step(&self, found: Found, action: Action, data: Option<ActionData>) -> Step {
        let w = &self.mirror.windows[&found.window];
        let node = w
            .tree
            .as_ref()
            .and_then(|t| t.state().node_by_id(found.node));
        let (node_id, tree) = node.map_or((NodeId(0), TreeId::ROOT), |n| n.locate());
        Step::Action {
            node: node_id,
            tree,
            action,
            data,
            widget: node.and_then(|n| n.author_id().map(str::to_owned)),
        }
    }

    fn focus_line(&mut self, window: u64) -> String {
        let focus = self.mirror.windows.get(&window).and_then(|w| {
            let tree = w.tree.as_ref()?;
            let f = tree.state().focus()?;
            Some(Found {
                window,
                node: f.id(),
            })
        });
        match focus {
            Some(f) => format!("focus {}\n", self.node_line(f)),
            None => "focus none\n".to_owned(),
        }
    }

    /// The tree text that `--settle` diffs against: the regular projection of every window.
    pub(crate) fn settle_text(&mut self) -> String {
        format::trees(&self.mirror, &mut self.refs, &format::View::default())
    }

    /// Plans an action command. `Ok(None)` for a command the app answers itself.
    pub(crate) fn plan(&mut self, command: &Command) -> Result<Option<Plan>, Failure> {
        let mut summary = String::new();
        let (window, stages) = match command {
            Command::Click {
                target,
                button,
                double,
                ..
            } => {
                let aim = self.aim(target, true)?;
                let presses = if *double { 2 } else { 1 };
                let mut press = Vec::new();
                for _ in 0..presses {
                    press.push(Step::Button {
                        button: *button,
                        pressed: true,
                    });
                    press.push(Step::Button {
                        button: *button,
                        pressed: false,
                    });
                }
                pointer_summary(&mut summary, &aim);
                let _ = writeln!(
                    summary,
                    "button {}{}",
                    button_name(*button),
                    if *double { " double" } else { "" }
                );
                (aim.window, vec![vec![move_to(&aim)], press])
            }
            Command::Hover { target, .. } => {
                let aim = self.aim(target, true)?;
                pointer_summary(&mut summary, &aim);
                (aim.window, vec![vec![move_to(&aim)]])
            }
            Command::Drag { from, to, .. } => {
                let a = self.aim(from, true)?;
                // A point is in the window where the drag starts.
                let b = match to {
                    Target::Point(p) => self.aim_point(a.window, *p)?,
                    _ => self.aim(to, false)?,
                };
                if a.window != b.window {
                    return Err(failure(
                        ErrorCode::BadArgument,
                        "a drag must start and end in the same window".to_owned(),
                        "pick two targets in one window",
                    ));
                }
                pointer_summary(&mut summary, &a);
                let _ = writeln!(summary, "to {},{}", num(b.x), num(b.y));
                if let Some(l) = &b.line {
                    let _ = writeln!(summary, "to_target {l}");
                }
                let mut stages = vec![vec![move_to(&a)]];
                stages.push(vec![Step::Button {
                    button: Button::Left,
                    pressed: true,
                }]);
                for i in 1..=4 {
                    let t = f64::from(i) / 4.0;
                    stages.push(vec![Step::Move {
                        x: a.x + (b.x - a.x) * t,
                        y: a.y + (b.y - a.y) * t,
                    }]);
                }
                stages.push(vec![Step::Button {
                    button: Button::Left,
                    pressed: false,
                }]);
                (a.window, stages)
            }
            Command::Scroll { target, dx, dy, .. } => {
                let aim = self.aim(target, true)?;
                pointer_summary(&mut summary, &aim);
                let _ = writeln!(summary, "wheel {} {}", num(*dx), num(*dy));
                (
                    aim.window,
                    vec![vec![move_to(&aim)], vec![Step::Wheel { dx: *dx, dy: *dy }]],
                )
            }
            Command::Type { text, .. } => {
                let window = default_window(self)?;
                summary.push_str("path text\n");
                summary.push_str(&self.focus_line(window));
                let _ = writeln!(summary, "typed {}", quote(text));
                (window, vec![vec![Step::Text(text.clone())]])
            }
            Command::Fill { target, text, .. } => {
                let (found, line) = self.node_for(target, Action::Focus)?;
                let select_all = KeyChord::parse("ctrl+a").expect("a valid chord");
                let _ = writeln!(summary, "path focus+select+text\ntarget {line}");
                let _ = writeln!(summary, "typed {}", quote(text));
                let focus = self.action_step(found, Action::Focus, None);
                (
                    found.window,
                    vec![
                        vec![focus],
                        vec![
                            Step::Key {
                                chord: select_all,
                                pressed: true,
                            },
                            Step::Key {
                                chord: select_all,
                                pressed: false,
                            },
                            Step::Text(text.clone()),
                        ],
                    ],
                )
            }
            Command::Key { chords, .. } => {
                let window = default_window(self)?;
                summary.push_str("path key\n");
                summary.push_str(&self.focus_line(window));
                let names: Vec<String> = chords.iter().map(ToString::to_string).collect();
                let _ = writeln!(summary, "keys {}", names.join(" "));
                let mut steps = Vec::new();
                for chord in chords {
                    steps.push(Step::Key {
                        chord: *chord,
                        pressed: true,
                    });
                    steps.push(Step::Key {
                        chord: *chord,
                        pressed: false,
                    });
                }
                (window, vec![steps])
            }
            Command::Action {
                target,
                action,
                value,
                ..
            } => {
                let (found, line) = self.node_for(target, *action)?;
                let numeric = self.mirror.windows[&found.window]
                    .tree
                    .as_ref()
                    .and_then(|t| t.state().node_by_id(found.node))
                    .is_some_and(|n| {
                        n.numeric_value().is_some()
                            || matches!(
                                n.role(),
                                Role::Slider
                                    | Role::SpinButton
                                    | Role::ProgressIndicator
                                    | Role::ScrollBar
                            )
                    });
                let data = action_data(*action, value.as_deref(), numeric)?;
                let _ = writeln!(
                    summary,
                    "path action\naction {}\ntarget {line}",
                    action_name(*action)
                );
                let step = self.action_step(found, *action, data);
                (found.window, vec![vec![step]])
            }
            Command::Focus { target, .. } => {
                let (found, line) = self.node_for(target, Action::Focus)?;
                let _ = writeln!(summary, "path action\naction focus\ntarget {line}");
                let step = self.action_step(found, Action::Focus, None);
                (found.window, vec![vec![step]])
            }
            Command::Resize { width, height, .. } => {
                let window = default_window(self)?;
                let _ = writeln!(summary, "path window\nresize {width} {height}");
                (
                    window,
                    vec![vec![Step::Resize {
                        width: *width,
                        height: *height,
                    }]],
                )
            }
            Command::Screenshot { label, crop } => {
                let (window, crop) = match crop {
                    None => (default_window(self)?, None),
                    Some(target) => {
                        let (window, r) = self.visible_rect(target)?;
                        (window, Some(r))
                    }
                };
                summary.push_str("path capture\n");
                (
                    window,
                    vec![vec![Step::Capture {
                        file: label.file_name(),
                        crop,
                    }]],
                )
            }
            Command::Quit => {
                summary.push_str("path window\nquit\n");
                (default_window(self).unwrap_or(0), vec![vec![Step::Quit]])
            }
            _ => return Ok(None),
        };
        Ok(Some(Plan {
            window,
            stages,
            summary,
        }))
    }
}

fn move_to(aim: &Aim) -> Step {
    Step::Move { x: aim.x, y: aim.y }
}

fn pointer_summary(out: &mut String, aim: &Aim) {
    let _ = writeln!(out, "path pointer\nat {},{}", num(aim.x), num(aim.y));
    if let Some(line) = &aim.line {
        let _ = writeln!(out, "target {line}");
    }
}

fn button_name(b: Button) -> &'static str {
    match b {
        Button::Left => "left",
        Button::Right => "right",
        Button::Middle => "middle",
    }
}

/// The data an action's VALUE becomes.
/// `numeric`: the node holds a number (a slider, a spin button), so a numeric `set_value` is sent as
/// AccessKit's numeric value; a text field gets the text as it was written.
fn action_data(
    action: Action,
    value: Option<&str>,
    numeric: bool,
) -> Result<Option<ActionData>, Failure> {
    let bad = |why: &str, hint: &str| Err(failure(ErrorCode::BadArgument, why.to_owned(), hint));
    let name = action_name(action);
    match (action, value) {
        (Action::SetValue, None) | (Action::ReplaceSelectedText, None) => bad(
            &format!("{name} needs a VALUE"),
            "write action TARGET set_value VALUE",
        ),
        (Action::SetValue, Some(v)) => Ok(Some(match v.parse::<f64>() {
            Ok(n) if n.is_finite() && numeric => ActionData::NumericValue(n),
            _ => ActionData::Value(v.into()),
        })),
        (Action::ReplaceSelectedText, Some(v)) => Ok(Some(ActionData::Value(v.into()))),
        (Action::CustomAction, Some(v)) => match v.parse::<i32>() {
            Ok(n) => Ok(Some(ActionData::CustomAction(n))),
            Err(_) => bad(
                &format!("custom_action takes a whole number, not {}", quote(v)),
                "write action TARGET custom_action N",
            ),
        },
        (Action::CustomAction, None) => bad(
            "custom_action needs the action's number",
            "write action TARGET custom_action N",
        ),
        (Action::ScrollToPoint | Action::SetScrollOffset, Some(v)) => match Point::parse(v) {
            Some(p) => Ok(Some(if action == Action::ScrollToPoint {
                ActionData::ScrollToPoint(AkPoint::new(p.x, p.y))
            } else {
                ActionData::SetScrollOffset(AkPoint::new(p.x, p.y))
            })),
            None => bad(
                &format!("{name} takes a point X,Y, not {}", quote(v)),
                "write e.g. action TARGET set_scroll_offset 0,120",
            ),
        },
        (Action::ScrollToPoint | Action::SetScrollOffset, None) => bad(
            &format!("{name} needs a point X,Y"),
            "write e.g. action TARGET set_scroll_offset 0,120",
        ),
        (_, Some(v)) => bad(
            &format!("{name} takes no value, but {} was given", quote(v)),
            "drop the value; only set_value, replace_selected_text, custom_action, scroll_to_point and set_scroll_offset take one",
        ),
        (_, None) => Ok(None),
    }
}

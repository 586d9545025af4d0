//! The pointer gestures' plans: `click`, `hover`, `drag`, `scroll`, `stroke`, `down`, `move`,
//! `up` and `pinch`, each one function, and what they share: the move before a press, the
//! modifiers around a gesture, the lines of their answers. docs/protocol.md section 4.6 states
//! each gesture's stages as these functions make them.

use std::fmt::Write;
use std::time::Duration;

use super::unchecked;
use crate::aim::{Aim, failure};
use crate::planner::Planner;
use crate::pointer::{Dragged, button_name};
use winit_automation_link::wiring::{Plan, StageWait};
use winit_automation_link::{Stage, Step, Still, TouchPhase};
use winit_automation_protocol::{Button, DragMotion, ErrorCode, Failure, Modifiers, Press, Target};
use winit_automation_tree::node::num;

/// How far each finger of a `pinch` starts from the centre, in logical pixels.
const PINCH_SPREAD: f64 = 40.0;
/// The frames a `pinch`'s fingers take to move.
const PINCH_MOVES: u32 = 8;

impl Planner<'_> {
    /// The stages of a pointer gesture: the move to `aim`, then `steps`. By default in one
    /// stage (the app handles its events in order, so a press lands where the move put the
    /// pointer); with `hover_frame`, `steps` in a stage after the move's. Returns the stages and
    /// the index of the stage that holds `steps`.
    fn after_move(hover_frame: bool, aim: &Aim, steps: Vec<Step>) -> (Vec<Stage>, usize) {
        if hover_frame {
            (vec![vec![move_to(aim)].into(), steps.into()], 1)
        } else {
            let mut one = vec![move_to(aim)];
            one.extend(steps);
            (vec![one.into()], 0)
        }
    }

    /// `click`: the move, then one press and release (two for `--double`; for `--hold`, the
    /// release in a stage of its own once the hold is over), checked as a press; the modifiers
    /// around it.
    pub fn plan_click(
        &mut self,
        target: &Target,
        (button, press): (Button, Press),
        modifiers: Modifiers,
        hover_frame: bool,
    ) -> Result<Plan, Failure> {
        self.pointer.may_press(button)?;
        let aim = self.aim(target, true)?;
        let [down, up] = button_tap(button);
        let presses = match press {
            Press::Single => vec![down, up.clone()],
            Press::Double => vec![down.clone(), up.clone(), down, up.clone()],
            Press::Hold(_) => vec![down],
        };
        let mut summary = pointer_summary(&aim);
        let how = match press {
            Press::Single => String::new(),
            Press::Double => " double".to_owned(),
            Press::Hold(ms) => format!(" held {ms}ms"),
        };
        let _ = writeln!(summary, "button {}{how}", button_name(button));
        modifiers_line(&mut summary, modifiers);
        let (mut stages, pressing) = Self::after_move(hover_frame, &aim, presses);
        if let Press::Hold(ms) = press {
            stages.push(Stage {
                wait: StageWait::After(Duration::from_millis(ms)),
                steps: vec![up],
            });
        }
        let press = Some(self.press_check(&aim, pressing));
        self.pointer_at(&aim);
        Ok(Plan {
            window: aim.window,
            stages: with_modifiers(stages, modifiers, self.pointer.modifiers),
            summary,
            press,
        })
    }

    /// `hover`: the move alone.
    pub fn plan_hover(&mut self, target: &Target) -> Result<Plan, Failure> {
        let aim = self.aim(target, true)?;
        let summary = pointer_summary(&aim);
        self.pointer_at(&aim);
        Ok(unchecked(
            aim.window,
            vec![vec![move_to(&aim)].into()],
            summary,
        ))
    }

    /// `drag`, as a person drags: the move to FROM, a left press, a hold, `steps` moves to TO
    /// (each in a frame of its own, [`DragMotion::STEP_MS`] apart), a dwell until the trees hold
    /// still (at most `dwell`), the release, and a frame for the app to take the drop in before
    /// the answer. Both ends in one window; checked as a press at the start.
    pub fn plan_drag(
        &mut self,
        (from, to): (&Target, &Target),
        motion: DragMotion,
        modifiers: Modifiers,
    ) -> Result<Plan, Failure> {
        self.pointer.may_press(Button::Left)?;
        let a = self.aim(from, true)?;
        let b = self.aim_end(a.window, to)?;
        let mut summary = pointer_summary(&a);
        let _ = writeln!(summary, "to {},{}", num(b.x), num(b.y));
        if let Some(l) = &b.line {
            let _ = writeln!(summary, "to_target {l}");
        }
        modifiers_line(&mut summary, modifiers);
        let press = Some(self.press_check(&a, 1));
        self.dragged = a.found.and_then(|found| {
            Some(Dragged {
                found,
                identity: self.identity(found)?,
                from: from.clone(),
            })
        });
        let [down, up] = button_tap(Button::Left);
        let mut stages: Vec<Stage> = vec![vec![move_to(&a)].into(), vec![down].into()];
        let steps = motion.steps();
        for i in 1..=steps {
            let t = f64::from(i) / f64::from(steps);
            let pause = if i == 1 {
                motion.hold_ms()
            } else {
                DragMotion::STEP_MS
            };
            stages.push(Stage {
                wait: StageWait::After(Duration::from_millis(pause)),
                steps: vec![Step::Move {
                    x: a.x + (b.x - a.x) * t,
                    y: a.y + (b.y - a.y) * t,
                }],
            });
        }
        let gate = match motion.dwell_ms() {
            0 => StageWait::Frame,
            ms => StageWait::Still {
                still: Still::default(),
                at_most: Duration::from_millis(ms),
            },
        };
        stages.push(Stage {
            wait: gate,
            steps: vec![up],
        });
        stages.push(Stage::default());
        self.pointer_at(&b);
        Ok(Plan {
            window: a.window,
            stages: with_modifiers(stages, modifiers, self.pointer.modifiers),
            summary,
            press,
        })
    }

    /// Where a gesture that started in `window` goes to: a point in that window, or a target
    /// (not checked for cover: what lies on top of a drop target is where a person lets go) in
    /// the same window.
    fn aim_end(&mut self, window: u64, to: &Target) -> Result<Aim, Failure> {
        let b = match to {
            Target::Point(p) => self.aim_point(window, *p)?,
            _ => self.aim(to, false)?,
        };
        if b.window != window {
            return Err(failure(
                ErrorCode::BadArgument,
                "a gesture must stay in the window where it starts".to_owned(),
                "pick targets in one window",
            ));
        }
        Ok(b)
    }

    /// `stroke`: the move to the first point and a press, one move a frame through the others,
    /// and the release at the last in a frame of its own; checked as a press at the first.
    pub fn plan_stroke(
        &mut self,
        points: &[Target],
        (button, modifiers): (Button, Modifiers),
        hover_frame: bool,
    ) -> Result<Plan, Failure> {
        let Some((first, rest)) = points.split_first() else {
            return Err(failure(
                ErrorCode::MissingArgument,
                "a stroke needs two points at least".to_owned(),
                "write stroke X,Y X,Y [X,Y...]",
            ));
        };
        self.pointer.may_press(button)?;
        let a = self.aim(first, true)?;
        let [down, up] = button_tap(button);
        let (mut stages, pressing) = Self::after_move(hover_frame, &a, vec![down]);
        let mut through = Vec::new();
        let mut last = None;
        for point in rest {
            let b = self.aim_end(a.window, point)?;
            through.push(format!("{},{}", num(b.x), num(b.y)));
            stages.push(Stage {
                wait: StageWait::After(Duration::from_millis(DragMotion::STEP_MS)),
                steps: vec![move_to(&b)],
            });
            last = Some(b);
        }
        stages.push(vec![up].into());
        let mut summary = pointer_summary(&a);
        let _ = writeln!(summary, "through {}", through.join(" "));
        let _ = writeln!(summary, "button {}", button_name(button));
        modifiers_line(&mut summary, modifiers);
        let press = Some(self.press_check(&a, pressing));
        if let Some(b) = &last {
            self.pointer_at(b);
        }
        Ok(Plan {
            window: a.window,
            stages: with_modifiers(stages, modifiers, self.pointer.modifiers),
            summary,
            press,
        })
    }

    /// `down`: the move and a press that stays down, checked as a press; the modifiers stay
    /// held until `up`. Refused when the button is down already.
    pub fn plan_down(
        &mut self,
        target: &Target,
        button: Button,
        modifiers: Modifiers,
        hover_frame: bool,
    ) -> Result<Plan, Failure> {
        self.pointer.may_press(button)?;
        if let Some(window) = self.pointer.pressed_in() {
            let aim = self.aim_end(window, target)?;
            return self.press_down(aim, button, modifiers, hover_frame);
        }
        let aim = self.aim(target, true)?;
        self.press_down(aim, button, modifiers, hover_frame)
    }

    fn press_down(
        &mut self,
        aim: Aim,
        button: Button,
        modifiers: Modifiers,
        hover_frame: bool,
    ) -> Result<Plan, Failure> {
        let [down, _] = button_tap(button);
        let mut summary = pointer_summary(&aim);
        let _ = writeln!(summary, "button {} down", button_name(button));
        let held = self.pointer.modifiers;
        let mut steps = Vec::new();
        if !modifiers.is_empty() && modifiers != held {
            let all = held | modifiers;
            modifiers_line(&mut summary, all);
            steps.push(Step::Modifiers(all));
            self.pointer.modifiers = all;
        }
        steps.push(down);
        let (stages, pressing) = Self::after_move(hover_frame, &aim, steps);
        let press = Some(self.press_check(&aim, pressing));
        self.pointer_at(&aim);
        self.pointer.down_in.get_or_insert(aim.window);
        self.pointer.down.push(button);
        Ok(Plan {
            window: aim.window,
            stages,
            summary,
            press,
        })
    }

    /// `move`: `steps` moves from where the pointer is to the target, each in a frame of its
    /// own. With a button down, the target is in that button's window and not checked for cover.
    pub fn plan_move(&mut self, target: &Target, steps: Option<u32>) -> Result<Plan, Failure> {
        let aim = match self.pointer.pressed_in() {
            Some(window) => self.aim_end(window, target)?,
            None => self.aim(target, true)?,
        };
        let from = self
            .pointer
            .at
            .filter(|(w, _, _)| *w == aim.window)
            .map_or((aim.x, aim.y), |(_, x, y)| (x, y));
        let steps = steps.unwrap_or(1).max(1);
        let mut stages = Vec::new();
        for i in 1..=steps {
            let t = f64::from(i) / f64::from(steps);
            stages.push(Stage {
                wait: if i == 1 {
                    StageWait::Frame
                } else {
                    StageWait::After(Duration::from_millis(DragMotion::STEP_MS))
                },
                steps: vec![Step::Move {
                    x: from.0 + (aim.x - from.0) * t,
                    y: from.1 + (aim.y - from.1) * t,
                }],
            });
        }
        let mut summary = pointer_summary(&aim);
        let down: Vec<&str> = self.pointer.down.iter().map(|b| button_name(*b)).collect();
        if !down.is_empty() {
            let _ = writeln!(summary, "buttons {} down", down.join(" "));
        }
        self.pointer_at(&aim);
        Ok(unchecked(aim.window, stages, summary))
    }

    /// `up`: the release where the pointer is; the modifiers `down` held are let go in the next
    /// frame once no button is down. Refused when the button is not down.
    pub fn plan_up(&mut self, button: Button) -> Result<Plan, Failure> {
        self.pointer.may_release(button)?;
        // Where the button went down; where the pointer is when that is the same window.
        let window = match self.pointer.pressed_in() {
            Some(w) => w,
            None => self.mirror().default_window()?,
        };
        let at = match self.pointer.at {
            Some((w, x, y)) if w == window => Some((x, y)),
            _ => None,
        };
        self.pointer.down.retain(|b| *b != button);
        if self.pointer.down.is_empty() {
            self.pointer.down_in = None;
        }
        let [_, up] = button_tap(button);
        let mut stages: Vec<Stage> = vec![vec![up].into()];
        if self.pointer.down.is_empty() && !self.pointer.modifiers.is_empty() {
            self.pointer.modifiers = Modifiers::default();
            stages.push(vec![Step::Modifiers(Modifiers::default())].into());
        }
        let mut summary = String::new();
        if let Some((x, y)) = at {
            let _ = writeln!(summary, "released at {},{}", num(x), num(y));
        }
        let _ = writeln!(summary, "button {}", button_name(button));
        Ok(unchecked(window, stages, summary))
    }

    /// `pinch`: two fingers either side of the target's centre, [`PINCH_SPREAD`] apart each way,
    /// moving over [`PINCH_MOVES`] frames to `scale` times that distance while their centre
    /// moves by `pan`, then lifted.
    pub fn plan_pinch(
        &mut self,
        target: &Target,
        scale: f64,
        (dx, dy): (f64, f64),
    ) -> Result<Plan, Failure> {
        let aim = self.aim(target, true)?;
        let fingers = |t: f64, phase| {
            let spread = PINCH_SPREAD * (1.0 + (scale - 1.0) * t);
            let (cx, cy) = (aim.x + dx * t, aim.y + dy * t);
            [(1, -spread), (2, spread)]
                .map(|(finger, side)| Step::Touch {
                    finger,
                    phase,
                    x: cx + side,
                    y: cy,
                })
                .to_vec()
        };
        let mut stages: Vec<Stage> = vec![fingers(0.0, TouchPhase::Start).into()];
        for i in 1..=PINCH_MOVES {
            stages.push(Stage {
                wait: StageWait::After(Duration::from_millis(DragMotion::STEP_MS)),
                steps: fingers(f64::from(i) / f64::from(PINCH_MOVES), TouchPhase::Move),
            });
        }
        stages.push(fingers(1.0, TouchPhase::End).into());
        self.fingers_inside(aim.window, &stages)?;
        let mut summary = pointer_summary(&aim);
        let _ = writeln!(
            summary,
            "fingers {} apart to {} apart",
            num(2.0 * PINCH_SPREAD),
            num(2.0 * PINCH_SPREAD * scale)
        );
        if (dx, dy) != (0.0, 0.0) {
            let _ = writeln!(summary, "pan {},{}", num(dx), num(dy));
        }
        Ok(unchecked(aim.window, stages, summary))
    }

    /// Refuses a gesture whose fingers would leave the window (`bad_argument`: its SCALE or
    /// `--pan` asks too much there): a finger touches only where the window is.
    fn fingers_inside(&self, window: u64, stages: &[Stage]) -> Result<(), Failure> {
        let Some(s) = self.mirror().windows().get(&window).and_then(|w| w.state()) else {
            return Ok(());
        };
        let outside = stages
            .iter()
            .flat_map(|st| &st.steps)
            .find_map(|step| match step {
                Step::Touch { x, y, .. }
                    if !(*x >= 0.0 && *y >= 0.0 && *x < s.width && *y < s.height) =>
                {
                    Some((*x, *y))
                }
                _ => None,
            });
        match outside {
            None => Ok(()),
            Some((x, y)) => Err(failure(
                ErrorCode::BadArgument,
                format!(
                    "a finger would go to {},{}, outside the window, which is {}x{}",
                    num(x),
                    num(y),
                    num(s.width),
                    num(s.height)
                ),
                "pick a smaller SCALE or --pan, or a target nearer the middle of the window",
            )),
        }
    }

    /// The pointer went to `aim`.
    fn pointer_at(&mut self, aim: &Aim) {
        self.pointer.at = Some((aim.window, aim.x, aim.y));
    }

    /// `scroll`: the move, then one wheel step of `(dx, dy)`; the modifiers around it.
    pub fn plan_scroll(
        &mut self,
        target: &Target,
        (dx, dy): (f64, f64),
        modifiers: Modifiers,
        hover_frame: bool,
    ) -> Result<Plan, Failure> {
        let aim = self.aim(target, true)?;
        let mut summary = pointer_summary(&aim);
        let _ = writeln!(summary, "wheel {} {}", num(dx), num(dy));
        modifiers_line(&mut summary, modifiers);
        let wheel = vec![Step::Wheel { dx, dy }];
        let stages = Self::after_move(hover_frame, &aim, wheel).0;
        self.pointer_at(&aim);
        Ok(unchecked(
            aim.window,
            with_modifiers(stages, modifiers, self.pointer.modifiers),
            summary,
        ))
    }
}

/// A button's press and release.
fn button_tap(button: Button) -> [Step; 2] {
    [true, false].map(|pressed| Step::Button { button, pressed })
}

/// The pointer move to the aimed point.
fn move_to(aim: &Aim) -> Step {
    Step::Move { x: aim.x, y: aim.y }
}

/// The summary's lines for a pointer gesture: the point, the visible share, the target, and the
/// input proxy that takes the press for it.
fn pointer_summary(aim: &Aim) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "at {},{}", num(aim.x), num(aim.y));
    if let Some(percent) = aim.visible {
        let _ = writeln!(out, "visible {percent}%");
    }
    if let Some(line) = &aim.line {
        let _ = writeln!(out, "target {line}");
    }
    if let Some((_, line)) = &aim.via {
        let _ = writeln!(out, "via {line}");
    }
    out
}

/// The `modifiers` line of a gesture that holds some.
fn modifiers_line(summary: &mut String, modifiers: Modifiers) {
    if !modifiers.is_empty() {
        let _ = writeln!(summary, "modifiers {modifiers}");
    }
}

/// A gesture's stages with its modifiers held (with those a `down` holds, `held`) from its first
/// stage on and let go (back to `held`) in a frame of their own after its last, as winit reports a key held around a click (`ModifiersChanged`
/// before the press, again after the release): a toolkit that reads the modifiers of the frame
/// (egui's `InputState::modifiers`) sees them held while the gesture acts.
fn with_modifiers(mut stages: Vec<Stage>, modifiers: Modifiers, held: Modifiers) -> Vec<Stage> {
    if modifiers.is_empty() || held | modifiers == held {
        return stages;
    }
    if let Some(first) = stages.first_mut() {
        first.steps.insert(0, Step::Modifiers(held | modifiers));
    }
    stages.push(vec![Step::Modifiers(held)].into());
    stages
}

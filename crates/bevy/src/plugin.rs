//! The plugin's systems and the state they share ([`Link`]): the frame opens in `First`, where
//! the commands' input goes in; it is published in `Last`, with its tree, the node a press went
//! to and its screenshots.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use bevy::ecs::system::{SystemParam, SystemState};
use bevy::ecs::world::Mut;
use bevy::picking::PickingSystems;
use bevy::picking::hover::HoverMap;
use bevy::picking::pointer::PointerId;
use bevy::prelude::*;
use bevy::time::{TimeSystems, TimeUpdateStrategy};
use bevy::ui::ComputedStackIndex;
use bevy::window::{PrimaryWindow, RequestRedraw};
use bevy::winit::{EventLoopProxyWrapper, WinitUserEvent};

use winit_automation_link::{ClockMode, Options, RenderEnd, WindowState};
use winit_automation_protocol::Command;

use crate::{AutomationPlugin, window_id};

/// What the plugin's systems share: the render end and what they remember between frames.
#[derive(Resource)]
pub(crate) struct Link {
    pub(crate) end: RenderEnd,
    /// What the input delivered this frame left: the windows pressed, the modifiers held.
    input: crate::input::Delivered,
    /// Each window's state as last told.
    windows: HashMap<Entity, WindowState>,
    /// The tree last sent, to send only what changed.
    pub(crate) tree: crate::tree::Sent,
    /// Whether the virtual clock drove Bevy's time last frame.
    virtual_time: bool,
    /// The app's own cap on a frame's virtual time, while a longer clock step raised it.
    max_delta: Option<Duration>,
    /// Screenshots handed to Bevy and not yet delivered, with when.
    shots: Vec<(std::time::Instant, crate::shots::Shot)>,
}

pub(crate) fn build(app: &mut App) {
    // Written while screenshots wait; registered here too for an app without bevy_window's plugin.
    app.add_message::<RequestRedraw>();
    app.add_systems(
        First,
        begin_frame
            .before(TimeSystems)
            .before(PickingSystems::Input)
            .run_if(resource_exists::<Link>),
    )
    .add_systems(
        PreUpdate,
        report_hits.after(PickingSystems::Hover).run_if(pressed),
    )
    // One system, so that an idle frame costs the scheduler one task.
    .add_systems(Last, end_frame.run_if(resource_exists::<Link>));
}

/// Whether a press went to a window this frame (its node is then reported).
fn pressed(link: Option<Res<Link>>) -> bool {
    link.is_some_and(|l| !l.input.pressed.is_empty())
}

/// `PreUpdate`, right after bevy_picking's hover step: the node each press of this frame went to
/// ([`crate::tree::report_hits`]).
fn report_hits(
    link: Res<Link>,
    hover: Option<Res<HoverMap>>,
    stack: Query<&ComputedStackIndex>,
    parents: Query<&ChildOf>,
) {
    let hits = hover.as_ref().and_then(|h| h.get(&PointerId::Mouse));
    crate::tree::report_hits(
        &link.end,
        &link.tree,
        &link.input.pressed,
        hits,
        &stack,
        &parents,
    );
}

/// The windows, the primary one apart: it is window 1 of the drop-box.
#[derive(SystemParam)]
pub(crate) struct Windows<'w, 's> {
    primary: Query<'w, 's, (Entity, &'static Window), With<PrimaryWindow>>,
    others: Query<'w, 's, (Entity, &'static Window), Without<PrimaryWindow>>,
    headless: Query<'w, 's, &'static crate::Headless>,
}

impl Windows<'_, '_> {
    /// Every window, the primary one first.
    fn iter(&self) -> impl Iterator<Item = (Entity, &Window)> {
        self.primary.iter().chain(self.others.iter())
    }
}

/// What the end of the frame reads and writes.
type EndFrame = (
    ResMut<'static, Link>,
    Windows<'static, 'static>,
    crate::tree::Scene<'static, 'static>,
    crate::tree::Changes<'static, 'static>,
    Commands<'static, 'static>,
    MessageWriter<'static, RequestRedraw>,
);

/// `Last`: the window states, the tree, the frame's publication and its screenshots. An
/// exclusive system: it runs on the schedule's own thread, so that an idle frame wakes no worker
/// thread for it.
fn end_frame(world: &mut World, state: &mut SystemState<EndFrame>) {
    let Ok((mut link, windows, scene, mut changes, commands, redraw)) = state.get_mut(world) else {
        return;
    };
    let link = &mut *link;
    window_states(link, &windows);
    crate::tree::publish_tree(&link.end, &mut link.tree, &scene, &mut changes);
    publish(link, &windows, commands, redraw);
    state.apply(world);
}

/// Starts the service when the app is built: its waker is winit's event loop proxy (a reactive
/// app sleeps until asked), when Bevy runs on winit.
pub(crate) fn finish(plugin: &AutomationPlugin, app: &mut App) {
    let waker: Option<winit_automation_link::Waker> = app
        .world()
        .get_resource::<EventLoopProxyWrapper>()
        .map(|proxy| {
            let proxy = std::sync::Mutex::new((**proxy).clone());
            Arc::new(move || {
                if let Ok(proxy) = proxy.lock() {
                    let _ = proxy.send_event(WinitUserEvent::WakeUp);
                }
            }) as winit_automation_link::Waker
        });
    let options = Options {
        name: plugin.app_name.clone(),
        dir: plugin.dir.clone(),
        capacity: 256,
        max_bytes: Command::DEFAULT_MAX_BYTES,
        reap_after: Duration::from_secs(2),
        response_ttl: Duration::from_secs(60),
        waker,
        app_screenshots: false,
        // bevy_picking releases on the entities hovered the frame before: the pointer moves one
        // frame before it presses, as a real pointer does.
        hover_frame: true,
        // A game reads its keys from `ButtonInput<KeyCode>`, whatever has the focus.
        keys_without_focus: true,
        clock: None,
    };
    match winit_automation_service::start(options) {
        Ok(end) => {
            app.insert_resource(Link {
                end,
                input: crate::input::Delivered::default(),
                windows: HashMap::new(),
                tree: crate::tree::Sent::default(),
                virtual_time: false,
                max_delta: None,
                shots: Vec::new(),
            });
        }
        Err(error) => log::error!("winit-automation did not start: {error}"),
    }
}

/// `First`: opens the frame and writes its input as Bevy's messages, in command order; Bevy's
/// time follows the plugin's clock when it is virtual.
fn begin_frame(world: &mut World) {
    world.resource_scope(|world, mut link: Mut<Link>| {
        let link = &mut *link;
        link.input.pressed.clear();
        if !link.end.open_frame() {
            return;
        }
        for injected in link.end.take_input() {
            crate::input::deliver(world, &mut link.input, injected);
        }
        let virtual_clock = link.end.clock().mode == ClockMode::Virtual;
        if virtual_clock {
            let (_, step) = link.end.frame_time();
            world.insert_resource(TimeUpdateStrategy::ManualDuration(step));
            // Bevy caps a frame's virtual time at `max_delta` (250 ms by default): a longer step
            // of the clock (`clock run 1000 --step 1000`) moves the game's time in full.
            if let Some(mut time) = world.get_resource_mut::<Time<Virtual>>()
                && time.max_delta() < step
            {
                link.max_delta.get_or_insert(time.max_delta());
                time.set_max_delta(step);
            }
        } else if link.virtual_time {
            world.insert_resource(TimeUpdateStrategy::Automatic);
            if let Some(max) = link.max_delta.take()
                && let Some(mut time) = world.get_resource_mut::<Time<Virtual>>()
            {
                time.set_max_delta(max);
            }
        }
        link.virtual_time = virtual_clock;
    });
}

/// Tells the plugin each window's title, logical size, scale and focus when they change, and
/// which windows closed.
fn window_states(link: &mut Link, windows: &Windows) {
    for (entity, window) in windows.iter() {
        let (width, height) = (window.width(), window.height());
        let scale = window.scale_factor();
        let same = link.windows.get(&entity).is_some_and(|s| {
            s.title == window.title
                && s.width == f64::from(width)
                && s.height == f64::from(height)
                && s.scale_factor == f64::from(scale)
                && s.focused == window.focused
        });
        if same {
            continue;
        }
        let state = WindowState {
            title: window.title.clone(),
            width: f64::from(width),
            height: f64::from(height),
            scale_factor: f64::from(scale),
            focused: window.focused,
        };
        link.end.window_state(window_id(entity), state.clone());
        link.windows.insert(entity, state);
    }
    if link.windows.len() == windows.primary.iter().len() + windows.others.iter().len() {
        return;
    }
    let end = &link.end;
    link.windows.retain(|&entity, _| {
        let open = windows.primary.contains(entity) || windows.others.contains(entity);
        if !open {
            end.window_closed(window_id(entity));
        }
        open
    });
}

/// Publishes the frame (its answers go out now) and hands the screenshots asked of it to
/// Bevy's screenshot path, which captures this frame as it is rendered.
fn publish(
    link: &mut Link,
    windows: &Windows,
    mut commands: Commands,
    mut redraw: MessageWriter<RequestRedraw>,
) {
    let end = &link.end;
    let mut published = end.publish(true);
    for (window, _) in windows.iter() {
        let id = window_id(window);
        if !end.wants_capture(id, Some(&published)) {
            continue;
        }
        let frame = published.number;
        if let Some(capture) = end.toolkit_capture(id, frame, Some(&mut published)) {
            let image = windows.headless.get(window).ok().map(|h| h.0.clone());
            let shot = crate::shots::take(&mut commands, window, image, capture);
            link.shots.push((std::time::Instant::now(), shot));
        }
    }
    end.end_frame(Some(published), true);
    if crate::shots::expire(&mut link.shots) {
        redraw.write(RequestRedraw);
    }
}

//! [`FrameTarget`]: where a frame is drawn so that it can be captured on any surface.
//!
//! A surface whose capabilities include `COPY_SRC` (Vulkan, Metal, DX12) is drawn into directly
//! and copied from. One that does not (the GL backend reports `RENDER_ATTACHMENT` only) is drawn
//! into an intermediate texture of the same format, which is copied from, and blitted to the
//! surface with `shaders/blit.wgsl` (exact texel loads, no filtering) before present.
//!
//! With the `automation` feature off it is a plain pass-through ([`CapturePath::Direct`]): the
//! frame is drawn into the surface texture, the configuration is left as the app made it (no
//! `COPY_SRC`), and nothing is blitted, so the app's frame loop keeps its shape and pays nothing.

/// How a frame reaches the surface.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum CapturePath {
    /// Drawn into the surface texture, which is copied from.
    SurfaceCopy,
    /// Drawn into the surface texture, which nothing copies: the `automation` feature is off.
    Direct,
    /// Drawn into an intermediate texture (copied from), then blitted to the surface.
    Blit,
}

impl CapturePath {
    /// The name used in logs and answers: `copy`, `blit` or `direct`.
    pub fn as_str(self) -> &'static str {
        match self {
            CapturePath::SurfaceCopy => "copy",
            CapturePath::Blit => "blit",
            CapturePath::Direct => "direct",
        }
    }
}

/// The texture a frame is drawn into, chosen from the surface's capabilities.
pub struct FrameTarget {
    path: CapturePath,
    intermediate: Option<wgpu::Texture>,
    pipeline: Option<(wgpu::RenderPipeline, wgpu::BindGroupLayout)>,
}

impl FrameTarget {
    /// Chooses the path for a surface and adjusts `config` (adds `COPY_SRC` to its usage when the
    /// surface supports it). Configure the surface with `config` afterwards, and call
    /// [`FrameTarget::resize`] after each configure; [`WindowSurface`] does all of it. With the
    /// feature off the path is [`CapturePath::Direct`] and `config` is left as it is.
    pub fn new(
        device: &wgpu::Device,
        config: &mut wgpu::SurfaceConfiguration,
        caps: &wgpu::SurfaceCapabilities,
    ) -> FrameTarget {
        if !crate::ENABLED {
            return FrameTarget {
                path: CapturePath::Direct,
                intermediate: None,
                pipeline: None,
            };
        }
        if caps.usages.contains(wgpu::TextureUsages::COPY_SRC) {
            config.usage |= wgpu::TextureUsages::COPY_SRC;
            return FrameTarget {
                path: CapturePath::SurfaceCopy,
                intermediate: None,
                pipeline: None,
            };
        }
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("winit-automation blit"),
            source: wgpu::ShaderSource::Wgsl(include_str!("../shaders/blit.wgsl").into()),
        });
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("winit-automation blit"),
            entries: &[wgpu::BindGroupLayoutEntry {
                binding: 0,
                visibility: wgpu::ShaderStages::FRAGMENT,
                ty: wgpu::BindingType::Texture {
                    sample_type: wgpu::TextureSampleType::Float { filterable: false },
                    view_dimension: wgpu::TextureViewDimension::D2,
                    multisampled: false,
                },
                count: None,
            }],
        });
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("winit-automation blit"),
            bind_group_layouts: &[Some(&layout)],
            immediate_size: 0,
        });
        let pipeline = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some("winit-automation blit"),
            layout: Some(&pipeline_layout),
            vertex: wgpu::VertexState {
                module: &module,
                entry_point: Some("vs"),
                compilation_options: Default::default(),
                buffers: &[],
            },
            fragment: Some(wgpu::FragmentState {
                module: &module,
                entry_point: Some("fs"),
                compilation_options: Default::default(),
                targets: &[Some(wgpu::ColorTargetState {
                    format: config.format,
                    blend: None,
                    write_mask: wgpu::ColorWrites::ALL,
                })],
            }),
            primitive: Default::default(),
            depth_stencil: None,
            multisample: Default::default(),
            multiview_mask: None,
            cache: None,
        });
        let mut target = FrameTarget {
            path: CapturePath::Blit,
            intermediate: None,
            pipeline: Some((pipeline, layout)),
        };
        target.resize(device, config);
        target
    }

    /// A texture to draw a headless app's frames into, `width` x `height` pixels of 8-bit sRGB
    /// RGBA that screenshots can copy from: no window, no surface.
    pub fn offscreen(device: &wgpu::Device, width: u32, height: u32) -> wgpu::Texture {
        Self::offscreen_with_format(device, width, height, wgpu::TextureFormat::Rgba8UnormSrgb)
    }

    /// [`FrameTarget::offscreen`] in the format the app's renderer draws in (egui-wgpu writes
    /// gamma-space colours: `Rgba8Unorm`). Screenshots read 8-bit RGBA or BGRA formats.
    pub fn offscreen_with_format(
        device: &wgpu::Device,
        width: u32,
        height: u32,
        format: wgpu::TextureFormat,
    ) -> wgpu::Texture {
        device.create_texture(&wgpu::TextureDescriptor {
            label: Some("winit-automation offscreen frame"),
            size: wgpu::Extent3d {
                width: width.max(1),
                height: height.max(1),
                depth_or_array_layers: 1,
            },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
            view_formats: &[],
        })
    }

    /// The path chosen.
    pub fn path(&self) -> CapturePath {
        self.path
    }

    /// Follows a reconfigured surface (call it after every `Surface::configure`).
    pub fn resize(&mut self, device: &wgpu::Device, config: &wgpu::SurfaceConfiguration) {
        if self.path == CapturePath::Blit {
            self.intermediate = Some(device.create_texture(&wgpu::TextureDescriptor {
                label: Some("winit-automation frame"),
                size: wgpu::Extent3d {
                    width: config.width.max(1),
                    height: config.height.max(1),
                    depth_or_array_layers: 1,
                },
                mip_level_count: 1,
                sample_count: 1,
                dimension: wgpu::TextureDimension::D2,
                format: config.format,
                usage: wgpu::TextureUsages::RENDER_ATTACHMENT
                    | wgpu::TextureUsages::TEXTURE_BINDING
                    | wgpu::TextureUsages::COPY_SRC,
                view_formats: &[],
            }));
        }
    }

    /// The texture to draw this frame into and to hand to [`Frame::capture`](crate::Frame::capture):
    /// the surface's own texture, or the intermediate one.
    pub fn texture<'a>(&'a self, surface_texture: &'a wgpu::Texture) -> &'a wgpu::Texture {
        self.intermediate.as_ref().unwrap_or(surface_texture)
    }

    /// Ends the frame's drawing: on the blit path, draws the intermediate texture onto the
    /// surface texture. Call it after [`Frame::capture`](crate::Frame::capture) and before
    /// submitting.
    pub fn finish(
        &self,
        device: &wgpu::Device,
        encoder: &mut wgpu::CommandEncoder,
        surface_texture: &wgpu::Texture,
    ) {
        let (Some(source), Some((pipeline, layout))) = (&self.intermediate, &self.pipeline) else {
            return;
        };
        let source_view = source.create_view(&Default::default());
        let bind = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("winit-automation blit"),
            layout,
            entries: &[wgpu::BindGroupEntry {
                binding: 0,
                resource: wgpu::BindingResource::TextureView(&source_view),
            }],
        });
        let target = surface_texture.create_view(&Default::default());
        let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("winit-automation blit"),
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view: &target,
                depth_slice: None,
                resolve_target: None,
                ops: wgpu::Operations {
                    load: wgpu::LoadOp::Clear(wgpu::Color::BLACK),
                    store: wgpu::StoreOp::Store,
                },
            })],
            ..Default::default()
        });
        pass.set_pipeline(pipeline);
        pass.set_bind_group(0, &bind, &[]);
        pass.draw(0..3, 0..1);
    }
}

/// A window's surface set up for captures in one call: configured for the window's size, through
/// a [`FrameTarget`] (`COPY_SRC`, or an intermediate texture blitted to the surface). The format
/// is the adapter's default ([`WindowSurface::new`]) or the first the surface offers that the app
/// accepts ([`WindowSurface::with_format`]); for a configuration of its own, an app uses
/// [`FrameTarget`], the piece underneath.
pub struct WindowSurface {
    window: std::sync::Arc<winit::window::Window>,
    surface: wgpu::Surface<'static>,
    config: wgpu::SurfaceConfiguration,
    target: FrameTarget,
}

impl WindowSurface {
    /// Configures `surface`, made for `window`, for the window's size, in the adapter's default
    /// format.
    ///
    /// # Panics
    ///
    /// When `adapter` cannot present to `surface` (choose it with `compatible_surface`).
    pub fn new(
        window: std::sync::Arc<winit::window::Window>,
        surface: wgpu::Surface<'static>,
        adapter: &wgpu::Adapter,
        device: &wgpu::Device,
    ) -> WindowSurface {
        Self::with_format(window, surface, adapter, device, |_| true)
    }

    /// As [`WindowSurface::new`], in the first format the surface offers for which `accept` is
    /// true (say `|f| !f.is_srgb()` for a renderer that writes gamma-space colours, as egui-wgpu
    /// does); the default format when none is.
    ///
    /// # Panics
    ///
    /// When `adapter` cannot present to `surface` (choose it with `compatible_surface`).
    pub fn with_format(
        window: std::sync::Arc<winit::window::Window>,
        surface: wgpu::Surface<'static>,
        adapter: &wgpu::Adapter,
        device: &wgpu::Device,
        accept: impl Fn(wgpu::TextureFormat) -> bool,
    ) -> WindowSurface {
        let size = window.inner_size();
        let mut config = surface
            .get_default_config(adapter, size.width.max(1), size.height.max(1))
            .expect("the adapter presents to the surface (choose it with `compatible_surface`)");
        let capabilities = surface.get_capabilities(adapter);
        if !accept(config.format)
            && let Some(&format) = capabilities.formats.iter().find(|&&f| accept(f))
        {
            config.format = format;
        }
        let target = FrameTarget::new(device, &mut config, &capabilities);
        surface.configure(device, &config);
        WindowSurface {
            window,
            surface,
            config,
            target,
        }
    }

    /// The window it shows.
    pub fn window(&self) -> &winit::window::Window {
        &self.window
    }

    /// The configuration in use, for [`Automation::surface`](crate::Automation::surface).
    pub fn config(&self) -> &wgpu::SurfaceConfiguration {
        &self.config
    }

    /// The capture path chosen.
    pub fn path(&self) -> CapturePath {
        self.target.path()
    }

    /// Follows the window's size (on `WindowEvent::Resized`); returns the configuration, for
    /// [`Automation::surface`](crate::Automation::surface).
    pub fn resize(&mut self, device: &wgpu::Device) -> &wgpu::SurfaceConfiguration {
        let size = self.window.inner_size();
        (self.config.width, self.config.height) = (size.width.max(1), size.height.max(1));
        self.surface.configure(device, &self.config);
        self.target.resize(device, &self.config);
        &self.config
    }

    /// The surface texture to show the next frame on. `None` when there is none now: an
    /// outdated or lost surface is configured again, and after a timeout as well the window is
    /// asked for another redraw; a hidden (occluded) window waits without spinning: ask for a
    /// redraw on `WindowEvent::Occluded(false)`. A screenshot of a window captured before waits
    /// for the next frame drawn.
    pub fn acquire(&self, device: &wgpu::Device) -> Option<wgpu::SurfaceTexture> {
        match self.surface.get_current_texture() {
            wgpu::CurrentSurfaceTexture::Success(texture)
            | wgpu::CurrentSurfaceTexture::Suboptimal(texture) => return Some(texture),
            wgpu::CurrentSurfaceTexture::Outdated | wgpu::CurrentSurfaceTexture::Lost => {
                self.surface.configure(device, &self.config);
            }
            wgpu::CurrentSurfaceTexture::Timeout => {}
            _ => return None,
        }
        self.window.request_redraw();
        None
    }

    /// The texture to draw the frame into and to hand to [`Frame::capture`](crate::Frame::capture).
    pub fn texture<'a>(&'a self, shown: &'a wgpu::SurfaceTexture) -> &'a wgpu::Texture {
        self.target.texture(&shown.texture)
    }

    /// Presents `shown` once the frame was submitted: on the blit path it draws the frame onto
    /// it first (an encoder and a submit of its own).
    pub fn present(&self, device: &wgpu::Device, queue: &wgpu::Queue, shown: wgpu::SurfaceTexture) {
        if self.target.path() == CapturePath::Blit {
            let mut encoder = device.create_command_encoder(&Default::default());
            self.target.finish(device, &mut encoder, &shown.texture);
            queue.submit([encoder.finish()]);
        }
        self.window.pre_present_notify();
        queue.present(shown);
    }
}

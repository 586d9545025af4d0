// Copies the intermediate frame texture to the surface, pixel for pixel, for surfaces that cannot
// be copied from (the GL backend reports RENDER_ATTACHMENT only). One full-screen triangle;
// textureLoad reads texels exactly (no sampler, no filtering). Source and target share a format,
// so an sRGB texture is decoded on load and encoded on store: the bytes arrive unchanged.

@group(0) @binding(0) var frame: texture_2d<f32>;

@vertex
fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4<f32> {
    // (-1,-1), (3,-1), (-1,3): a triangle that covers the whole viewport.
    let corner = vec2<f32>(f32((i << 1u) & 2u), f32(i & 2u));
    return vec4<f32>(corner * 2.0 - 1.0, 0.0, 1.0);
}

@fragment
fn fs(@builtin(position) position: vec4<f32>) -> @location(0) vec4<f32> {
    return textureLoad(frame, vec2<i32>(position.xy), 0);
}

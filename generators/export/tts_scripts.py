"""The Lua an object of the Tabletop Simulator export carries so that it takes its printed size on the table.

TTS sizes a custom board or card from its image and documents no figure for how large that is at scale 1;
what it does document is its unit: "in-game units (about an inch)" (Knowledge Base, custom-tile.md). So
every board and card carries a short `onLoad` that measures the object as TTS made it
(`getBoundsNormalized`) and scales it to its printed width in those units, from the game's data: a
half-inch counter half a unit wide, the map poster its width in mm / 25.4. A board also sets a snap
point on each of its spaces, placed as a share of the measured image, so the points lie on the printed
spaces whatever size TTS gave the image. Once sized, an object measures its width again on the next load
and leaves itself alone.
"""

from __future__ import annotations

from collections.abc import Sequence

MM_PER_UNIT = 25.4  # a TTS unit is about an inch (Knowledge Base, custom-tile.md)

_FIT = """\
-- Printed size: {width} table units wide (a unit is about an inch), from the game's data.
WIDTH = {width}
{spaces}
function onLoad(state)
  local size, scale = self.getBoundsNormalized().size, self.getScale()
  if size.x <= 0 or size.z <= 0 then return end
  local across, deep, top = size.x / scale.x, size.z / scale.z, size.y / scale.y / 2
  local factor = WIDTH / size.x
  if math.abs(factor - 1) > 0.001 then
    self.setScale({{x = scale.x * factor, y = scale.y, z = scale.z * factor}})
  end
  if SPACES then
    local points = {{}}
    for _, at in ipairs(SPACES) do
      points[#points + 1] = {{position = {{x = (at[1] - 0.5) * across, y = top, z = (0.5 - at[2]) * deep}}}}
    end
    self.setSnapPoints(points)
  end
  if START and state ~= PLACED then
    Wait.frames(function()
      local height = {{}}
      for _, at in ipairs(START) do
        local piece = getObjectFromGUID(at[1])
        local key = at[2] .. "," .. at[3]
        height[key] = (height[key] or 0) + 1
        if piece then
          piece.setPosition(self.positionToWorld({{x = (at[2] - 0.5) * across, y = top + 0.3 * height[key], z = (0.5 - at[3]) * deep}}))
        end
      end
    end, 1)
  end
end
"""
_START = """\
-- What this board sets on its spaces as the game begins, once: each object's GUID and its space, as a share
-- of the board's width and height from its top left corner.
PLACED = "set up"
START = {{
{rows},
}}
function onSave()
  return PLACED
end
"""


def units(mm: float) -> float:
    """`mm` in TTS units."""
    return mm / MM_PER_UNIT


def fit_script(width_mm: float, spaces: Sequence[tuple[float, float]] = (),
               starts: Sequence[tuple[str, float, float]] = ()) -> str:
    """The onLoad that scales an object to `width_mm` printed, with a snap point at each of `spaces`
    (each a share of the image's width and height, from its top left corner), and that the first time the
    object loads sets each object of `starts` (GUID, and a share as `spaces`) on its place, several on one
    place stacked; onSave then records that it is done, so a saved game reloads as it was left."""
    table = ""
    if spaces:
        rows = ",\n".join(f"  {{{x:.5f}, {y:.5f}}}" for x, y in spaces)
        table = f"-- Each space's centre, as a share of the board's width and height from its top left corner.\nSPACES = {{\n{rows},\n}}\n"
    if starts:
        table += _START.format(rows=",\n".join(f'  {{"{_hex(guid)}", {x:.5f}, {y:.5f}}}' for guid, x, y in starts))
    # no newline at the end: TTS's save tools keep a script as a file and read it back without one
    return _FIT.format(width=f"{units(width_mm):.4f}", spaces=table).rstrip("\n")


def _hex(guid: str) -> str:
    """A GUID as the export makes them (hex digits only), so that nothing but numbers and hex goes into a script."""
    if not guid or any(c not in "0123456789abcdef" for c in guid):
        raise ValueError(f"not an export GUID: {guid!r}")
    return guid

-- One Ardour session for tests/host_ardour.sh, driven headless by ardour7-lua on the
-- Dummy backend:
--   ardour7-lua session.lua make   DIR CASE OUT  -- a new 48 kHz session: Rebound (VST3) on
--       a MIDI track, a MIDI region, the case's patch; bounce OUT/a.*.wav, OUT/b.*.wav;
--       save; close
--   ardour7-lua session.lua render DIR OUT       -- reopen it; bounce the same; close
-- Two bounces per process show whether one session renders the same twice; `make`'s
-- against `render`'s whether it survives the save, close and reopen.
-- Any failure is a Lua error: ardour7-lua then exits with status 1.

local RATE = 48000
-- The region and the bounce: long enough for every note to reach exact zero, so that a
-- second bounce starts from silence (Rebound's voices ring on below its -120 dB end,
-- down through denormals, for about 10 s after a strike).
local SECONDS = 16

local mode, dir, out = arg[1], arg[2], arg[#arg]

-- Beats at the session's default 120 bpm: one beat is 0.5 s, 1920 ticks.
local function beats(b) return Temporal.Beats(math.floor(b), math.floor((b % 1) * 1920)) end
local function beat_pos(b) return Temporal.timepos_t.from_ticks(math.floor(b * 1920)) end

-- {beat, length in beats, key, velocity}: a few keys, soft to hard.
local NOTES = { { 0.5, 1, 60, 100 }, { 2, 1, 64, 80 }, { 3.5, 1.5, 67, 127 }, { 5, 0.5, 72, 60 } }
-- {beat, value}: mod wheel (CC 1) moves. The first at the region's start: a render then
-- does not start where the last one left the wheel.
local MOD_WHEEL = { { 0, 0 }, { 1.5, 40 }, { 2.5, 64 }, { 3, 127 }, { 4.5, 32 } }

-- What each case sets (by the plugin's parameter names), and whether its MIDI moves the
-- mod wheel. Values are the host's plain values: a choice's index (src/params/choices.rs),
-- log10 of the unit for the log-scaled parameters (Hardness 3 ms is log10 3).
local CASES = {
  default = { params = {}, cc = false },
  patch = { params = { { "Body", 2 --[[Plate]] }, { "Hardness", math.log(3, 10) }, { "Bounciness", 0.9 } }, cc = false },
  -- "max" is the parameter's upper end (100 %).
  ["modwheel-pitch"] = { params = { { "Mod wheel", 4 --[[Body pitch]] }, { "Mod wheel depth", "max" } }, cc = false },
  ["modwheel-cc"] = { params = { { "Mod wheel", 4 --[[Body pitch]] }, { "Mod wheel depth", "max" } }, cc = true },
}

local function rebound()
  for r in Session:get_routes():iter() do
    local p = r:nth_plugin(0)
    if not p:isnil() and p:display_name() == "Rebound" then return r, p end
  end
  error("no Rebound plugin in the session")
end

-- The plugin's parameter index for `label`: with VST3 it is also what set_processor_param
-- takes (VST3Plugin::nth_parameter is the identity).
local function param(plug, label)
  for j = 0, plug:parameter_count() - 1 do
    if plug:parameter_label(j) == label then return j end
  end
  error("no parameter " .. label)
end

-- The values Ardour holds for the case's parameters and for two of the wrapper's hidden
-- MIDI stand-ins (Ardour labels them all "hidden"; after the plugin's own parameters
-- they run CC 0-127, channel pressure, pitch bend for channel 1, then channel 2, ...).
local function show(proc)
  local plug = proc:to_insert():plugin(0)
  local shown = { Body = true, Hardness = true, Bounciness = true, ["Mod wheel"] = true, ["Mod wheel depth"] = true }
  local h0 = param(plug, "hidden")
  for j = 0, plug:parameter_count() - 1 do
    local l = plug:parameter_label(j)
    if j == h0 + 1 then l = "MIDI ch 1 CC 1 (hidden)" elseif j == h0 + 128 then l = "MIDI ch 1 pressure (hidden)" end
    if shown[l] or j == h0 + 1 or j == h0 + 128 then
      print(string.format("  param %-28s %.6g", l, ARDOUR.LuaAPI.get_processor_param(proc, j)))
    end
  end
end

-- Bounces the track through Rebound (the plugin's own output, before fader and panner)
-- to OUT/NAME.c.wav, one 32-bit float WAV per channel c. Not Session:simple_export():
-- in Ardour 7.3 it aborts on a corrupt heap in about one run of three, with any plugin
-- or none (in ExportGraphBuilder::reset on the process thread, or freeing the exporter's
-- channels on this one; valgrind, which serializes threads, finds nothing: a race, it
-- seems, between run_export()'s 10 ms poll finishing the export here and the process
-- thread still tearing it down). A bounce runs the track on this thread, under the
-- process lock.
local function bounce(track, proc, name)
  local t0 = ARDOUR.LuaAPI.monotonic_time()
  local r = track:bounce_range(0, SECONDS * RATE, ARDOUR.InterThreadInfo(), proc, true, name)
  assert(not r:isnil(), "the bounce failed")
  local ar = r:to_audioregion()
  -- A silent render means Ardour had not rendered the MIDI playlist yet (see settle).
  assert(ar:maximum_amplitude(nil) > 0, "the bounce is silent")
  for c = 0, ar:n_channels() - 1 do
    local src = io.open(r:source(c):to_filesource():path(), "rb")
    local dst = io.open(string.format("%s/%s.%d.wav", out, name, c), "wb")
    dst:write(src:read("a"))
    src:close()
    dst:close()
  end
  print(string.format("  bounced %s in %.2f s", name, (ARDOUR.LuaAPI.monotonic_time() - t0) / 1e6))
end

-- A bounce reads the MIDI playlist as Ardour's butler thread last rendered it, which it
-- does a moment after the playlist changes or the session loads; and Ardour 7.3 runs the
-- plugin in real-time mode even to bounce or export, where Rebound's level tables for a
-- new patch come from a background thread (some 50 ms): a note struck before they are
-- ready plays at the last patch's level. Give both their moment.
local function settle()
  assert(ARDOUR.LuaAPI.wait_for_process_callback(8, 5000), "the engine stopped")
  ARDOUR.LuaAPI.usleep(2000000)
end

-- The Dummy backend at the block size Ardour bounces in (Session::bounce_chunk_size):
-- at any other size a bounce changes the plugin's block size first, which deactivates
-- and reactivates it, and so resets it as no playback or export does.
local BLOCK = 8192
local function engine()
  local backend = AudioEngine:set_backend("None (Dummy)", "", "")
  assert(backend and backend:set_buffer_size(BLOCK) == 0, "no Dummy backend at " .. BLOCK)
end

-- Every Lua reference to a session object lives in make() or render(), and is collected
-- before close_session(): one collected after it reads the freed session.
local function make(case)
  engine()
  assert(create_session(dir, "rebound", RATE), "cannot create session " .. dir)
  assert(Session:get_block_size() == BLOCK, "block size " .. Session:get_block_size())
  local info = ARDOUR.LuaAPI.new_plugin_info("Rebound", ARDOUR.PluginType.VST3)
  assert(not info:isnil(), "Ardour does not list the Rebound VST3")
  -- MIDI in, MIDI out as Ardour's add-track dialog does: the instrument makes the audio.
  local midi = ARDOUR.ChanCount(ARDOUR.DataType("midi"), 1)
  local tracks = Session:new_midi_track(midi, midi, true, info, nil, nil, 1, "Rebound",
    ARDOUR.PresentationInfo.max_order, ARDOUR.TrackMode.Normal, false, false)
  assert(tracks:size() == 1, "no MIDI track")
  local track = tracks:front()
  local _, proc = rebound()

  -- Lua cannot make an empty MIDI region; bouncing the (still empty) track makes one.
  local region = track:bounce_range(0, SECONDS * RATE, ARDOUR.InterThreadInfo(),
    ARDOUR.LuaAPI.nil_proc(), false, "notes")
  local mr = region:to_midiregion()
  assert(not mr:isnil(), "the bounce made no MIDI region")
  local model = mr:model()
  local cmd = model:new_note_diff_command("notes")
  for _, n in ipairs(NOTES) do
    cmd:add(ARDOUR.LuaAPI.new_noteptr(0, beats(n[1]), beats(n[2]), n[3], n[4]))
  end
  model:apply_command(Session, cmd)
  if case.cc then
    local cl = mr:control(Evoral.Parameter(ARDOUR.AutomationType.MidiCCAutomation, 0, 1), true):list()
    -- Steps, not ramps: a ramp's interpolated events would be rounded anew on reload.
    cl:set_interpolation(Evoral.InterpolationStyle.Discrete)
    for _, c in ipairs(MOD_WHEEL) do cl:add(beat_pos(c[1]), c[2], false, false) end
  end
  track:playlist():add_region(region, Temporal.timepos_t(0), 1, false, 0, 0, false)

  local plug = proc:to_insert():plugin(0)
  for _, p in ipairs(case.params) do
    local j = param(plug, p[1])
    local v = p[2]
    if v == "max" then -- by-reference arguments come back in a table
      local _, refs = plug:get_parameter_descriptor(j, ARDOUR.ParameterDescriptor())
      v = refs[2].upper
    end
    assert(ARDOUR.LuaAPI.set_processor_param(proc, j, v), "cannot set " .. p[1])
  end
  settle() -- and process cycles hand the values to the plugin
  show(proc)
  bounce(track, proc, "a")
  bounce(track, proc, "b")
  assert(Session:save_state("", false, false, false, false, false) == 0, "save failed")
end

local function render()
  engine()
  assert(load_session(dir, "rebound"), "cannot load session " .. dir)
  assert(Session:get_block_size() == BLOCK, "block size " .. Session:get_block_size())
  local track, proc = rebound()
  settle()
  show(proc)
  bounce(track:to_track(), proc, "a")
  bounce(track:to_track(), proc, "b")
end

if mode == "make" then
  make(CASES[arg[3]] or error("unknown case " .. tostring(arg[3])))
elseif mode == "render" then
  render()
else
  error("usage: session.lua make DIR CASE OUT | render DIR OUT")
end
collectgarbage()
close_session()
print("session.lua: done")

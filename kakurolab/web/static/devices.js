// One player on several devices (issue 50, "Across devices"; the engine's game/accounts.py).
// The start page's Devices card lists this player's devices and unused sign-in codes, each
// with Revoke, makes a one-time code (with its link, #/signin/CODE) for another device, and
// takes a code typed by hand.  The page #/signin/CODE redeems a code on this browser: the
// server answers with a NEW token of the code's player, kept like any other identity.
// Everything is decided by the server; this file only asks and draws.

const $ = (sel) => document.querySelector(sel);

/** A name for this browser in the player's device list ("Chrome on Linux"). */
function deviceName() {
  const ua = navigator.userAgent || "";
  const browser = /Firefox\//.test(ua) ? "Firefox" : /Edg\//.test(ua) ? "Edge"
    : /Chrom(e|ium)\//.test(ua) ? "Chrome" : /Safari\//.test(ua) ? "Safari" : "Browser";
  const os = /Android/.test(ua) ? "Android" : /iPhone|iPad/.test(ua) ? "iOS"
    : /Windows/.test(ua) ? "Windows" : /Mac OS/.test(ua) ? "macOS" : /Linux/.test(ua) ? "Linux" : "";
  return os ? `${browser} on ${os}` : browser;
}

const when = (seconds) => new Date(seconds * 1000).toLocaleString([], { dateStyle: "medium", timeStyle: "short" });
const clock = (seconds) => new Date(seconds * 1000).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });

/** The Devices card of the start page for the current player (nothing until they have a token). */
export async function drawDevices(ctx) {
  const card = $("#devices");
  const known = ctx.ui.identities[ctx.ui.player];
  const box = $("#devices-list");
  $("#devices-status").textContent = "";
  if (!known) { box.innerHTML = ""; $("#devices-codes").innerHTML = ""; card.dataset.state = "none"; return; }
  let data;
  try { data = await ctx.api("GET", "/api/devices", null, known.token); }
  catch (err) {
    card.dataset.state = "refused";
    $("#devices-status").textContent = /unknown player token/.test(err.message)
      ? "This device is signed out (revoked from another device). Sign in again with a code, "
        + "or play on as a new player."
      : err.message;
    box.innerHTML = "";
    return;
  }
  card.dataset.state = "ok";
  box.innerHTML = "";
  for (const device of data.devices) {
    const li = document.createElement("li");
    li.dataset.device = device.device_id;
    const label = document.createElement("span");
    label.className = device.revoked ? "revoked" : "";
    label.textContent = device.label;
    li.append(label);
    const note = document.createElement("span");
    note.className = "note";
    note.textContent = device.revoked ? ` · revoked ${when(device.revoked)}`
      : ` · since ${when(device.created)}${device.current ? " · this device" : ""}`;
    li.append(note);
    if (!device.revoked) {
      const revoke = document.createElement("button");
      revoke.type = "button";
      revoke.className = "revoke";
      revoke.textContent = device.current ? "Sign out" : "Revoke";
      revoke.addEventListener("click", () => revokeDevice(ctx, known, device));
      li.append(" ", revoke);
    }
    box.append(li);
  }
  const codes = $("#devices-codes");
  codes.innerHTML = "";
  for (const code of data.codes) {
    const li = document.createElement("li");
    li.dataset.code = code.code_id;
    li.textContent = `Unused code, made ${clock(code.created)}, good until ${clock(code.expires)} `;
    const revoke = document.createElement("button");
    revoke.type = "button";
    revoke.className = "revoke";
    revoke.textContent = "Revoke";
    revoke.addEventListener("click", async () => {
      try { await ctx.api("DELETE", `/api/codes/${encodeURIComponent(code.code_id)}`, null, known.token); }
      catch (err) { $("#devices-status").textContent = err.message; }
      drawDevices(ctx);
    });
    li.append(revoke);
    codes.append(li);
  }
}

async function revokeDevice(ctx, known, device) {
  try {
    await ctx.api("DELETE", `/api/devices/${encodeURIComponent(device.device_id)}`, null, known.token);
  } catch (err) { $("#devices-status").textContent = err.message; return; }
  if (device.current) { // signed this browser out: forget its token
    delete ctx.ui.identities[ctx.ui.player];
    ctx.store.set("kakuro.identities", ctx.ui.identities);
  }
  drawDevices(ctx);
}

/** A one-time code for another device, shown once with its link. */
async function makeCode(ctx) {
  const out = $("#devices-new");
  try {
    const me = await ctx.identity();
    const made = await ctx.api("POST", "/api/codes", null, me.token);
    $("#devices-code").textContent = made.code;
    $("#devices-link").value = `${location.origin}${made.link}`;
    $("#devices-expiry").textContent = clock(made.expires);
    out.hidden = false;
  } catch (err) { $("#devices-status").textContent = err.message; }
  drawDevices(ctx);
}

/** Redeem ``code`` on this browser: a new token of the code's player, who becomes this
 * page's player; then the start page (My games comes from the server). */
async function redeem(ctx, code, status) {
  status.textContent = "Signing in…";
  let me;
  try { me = await ctx.api("POST", "/api/signin", { code, device: deviceName() }); }
  catch (err) { status.textContent = err.message; return false; }
  ctx.ui.identities[me.name] = { player_id: me.player_id, token: me.token };
  ctx.store.set("kakuro.identities", ctx.ui.identities);
  ctx.setPlayer(me.name);
  status.textContent = `Signed in as ${me.name}`;
  location.replace("#/");
  return true;
}

/** The page #/signin/CODE: a button, so a link preview fetching the page spends nothing. */
export function showSignin(ctx, code) {
  ctx.show("signin");
  $("#signin-code").textContent = code;
  $("#signin-message").textContent = "";
  $("#signin-go").onclick = () => redeem(ctx, code, $("#signin-message"));
}

export function setupDevices(ctx) {
  $("#devices-make").addEventListener("click", () => makeCode(ctx));
  $("#devices-copy").addEventListener("click", async () => {
    try { await navigator.clipboard.writeText($("#devices-link").value); $("#devices-status").textContent = "Link copied"; }
    catch { $("#devices-link").select(); }
  });
  $("#devices-redeem").addEventListener("submit", (event) => {
    event.preventDefault();
    const field = $("#devices-redeem input[name=code]");
    redeem(ctx, field.value, $("#devices-status")).then((done) => { if (done) field.value = ""; });
  });
}

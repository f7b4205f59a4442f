// What every page shares: calling the JSON API and showing its errors in the page.

/** Call the API (``headers`` added to the request); resolves to the JSON answer, rejects with
 * an Error carrying its message and the answer's ``status``. */
export async function api(path, body = undefined, method = undefined, headers = {}) {
  const options = { method: method || (body === undefined ? "GET" : "POST"), headers: { ...headers } };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, options);
  } catch (error) {
    throw new Error("the server cannot be reached: is plies serve still running?");
  }
  const text = await response.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!response.ok) {
    const error = new Error((data && data.error) || `the server answered ${response.status}`);
    error.status = response.status;
    throw error;
  }
  return data;
}

/** Show ``message`` in the page's error banner (an element with id "error"); "" hides it. */
export function showError(message) {
  const banner = document.getElementById("error");
  if (!banner) return;
  banner.textContent = message || "";
  banner.hidden = !message;
}

/** Run an async action, turning any error into the banner's message instead of a crash. */
export async function guarded(action) {
  showError("");
  try {
    return await action();
  } catch (error) {
    showError(error.message || String(error));
    return undefined;
  }
}

/** Create an element with attributes and children: el("div", {class: "x"}, "text", child). */
export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      node.addEventListener(key.slice(2), value);
    } else {
      node.setAttribute(key, value === true ? "" : value);
    }
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

/** An SVG element with attributes. */
export function svg(tag, attributes = {}, ...children) {
  const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value !== undefined && value !== null) node.setAttribute(key, value);
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

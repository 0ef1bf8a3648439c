// Every address no other route takes: a 404 answered by a route (not by Remix's router), so that
// the root loader runs and the page header knows who is signed in.
export function loader() {
  throw new Response("Nicht gefunden", { status: 404 });
}

export function action() {
  throw new Response("Nicht gefunden", { status: 404 });
}

export default function NotFound() {
  return null;
}

// The four Excel lists of an event (spec §7 Exports): lead persons, the camp team and admins.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { exportList, isExportList } from "~/models/export.server";
import { workbookResponse } from "~/services/excel.server";
import { NOT_FOUND_TEXT, requireEventCapability } from "~/services/permissions.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { event } = await requireEventCapability(request, params.id, "export", "not-found");
  if (!isExportList(params.list)) throw new Response(NOT_FOUND_TEXT, { status: 404 });
  const file = exportList(event.id, params.list);
  if (!file) throw new Response(NOT_FOUND_TEXT, { status: 404 });
  return workbookResponse(file.fileName, file.body);
}

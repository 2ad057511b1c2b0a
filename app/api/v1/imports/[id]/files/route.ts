export { PUT } from "@/app/api/imports/[id]/files/route";

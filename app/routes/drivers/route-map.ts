/** Menu URLs of the drivers' screens (customers, groups, RFID cards) that have their own module (app/routes.ts serves the rest). */
export const driverScreens: Record<string, string> = {
  "/user/rf-card": "routes/drivers/cards.tsx",
  "/userManagement/userProfileManagement": "routes/drivers/customers.tsx",
  "/userManagement/userProfileManagement/customerAdd": "routes/drivers/customer-form.tsx",
  "/userManagement/userProfileManagement/customerEdit/:id": "routes/drivers/customer-form.tsx",
  "/userManagement/userProfileManagement/customerDetail/:id": "routes/drivers/customer-detail.tsx",
  "/userManagement/userGroupManagement": "routes/drivers/groups.tsx",
  "/userManagement/userGroupManagement/group": "routes/drivers/group-form.tsx",
  "/userManagement/userGroupManagement/groupEdit/:id": "routes/drivers/group-form.tsx",
  "/userManagement/userGroupManagement/groupDetail/:id": "routes/drivers/group-detail.tsx",
  "/userManagement/groupList": "routes/drivers/group-members.tsx",
};
